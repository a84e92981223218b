mod render;
mod report;

fn main() {}
