//! Views: what `graph`, `topology`, `simulate` and `report` show, built
//! from a design as data. A renderer turns a view into text; a view writes
//! no file and knows no command.

pub mod cabling;
pub mod graph;
pub mod report;
pub mod simulate;
pub mod topology;
