//! PowerShell's formatted text (`Format-Table`, the default view of most
//! cmdlets, and `Format-List`), recognised so that a file of it is refused
//! with what to do instead, not as "unknown content". netlint reads host
//! collections as the JSON or CliXml `netlint collect` writes: formatted
//! text cuts columns, truncates values (`...`) and hides properties.

/// Which formatted view a text is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// Columns under a header line and a line of dashes (`----  ------`).
    Table,
    /// `Name : value` lines, the names padded to one column of colons.
    List,
}

/// The view `text` is in, when most of its content says so.
pub fn view(text: &str) -> Option<View> {
    let lines: Vec<&str> = text
        .lines()
        .map(|l| l.trim_end_matches('\r'))
        .filter(|l| !l.trim().is_empty())
        .collect();
    let dashes = |l: &str| {
        let t = l.trim();
        !t.is_empty()
            && t.split_whitespace()
                .all(|w| w.len() >= 2 && w.bytes().all(|b| b == b'-'))
    };
    // PowerShell underlines each column's header with exactly as many
    // dashes as it has characters, and a property name has no space (a
    // switch's LLDP table, `Neighbor Device ID` over `----------`, does
    // not).
    let underlined = |head: &str, line: &str| {
        let (head, line) = (head.as_bytes(), line.as_bytes());
        let mut i = 0;
        let mut groups = 0;
        while i < line.len() {
            if line[i] != b'-' {
                i += 1;
                continue;
            }
            let start = i;
            while i < line.len() && line[i] == b'-' {
                i += 1;
            }
            let Some(word) = head.get(start..i) else {
                return false;
            };
            let before = start.checked_sub(1).map_or(b' ', |j| head[j]);
            let after = head.get(i).copied().unwrap_or(b' ');
            if word.contains(&b' ') || before != b' ' || after != b' ' {
                return false;
            }
            groups += 1;
        }
        groups >= 2
    };
    if lines
        .windows(2)
        .any(|w| !dashes(w[0]) && dashes(w[1]) && underlined(w[0], w[1]))
    {
        return Some(View::Table);
    }
    // Format-List: `Name<pad> : value`, the colon at one column per block.
    let mut cols = std::collections::BTreeMap::<usize, usize>::new();
    let mut listed = 0;
    for l in &lines {
        let Some(i) = l
            .find(" : ")
            .or_else(|| l.strip_suffix(" :").map(|s| s.len()))
        else {
            continue;
        };
        let name = l[..i].trim_end();
        if !name.is_empty()
            && !name.starts_with(' ')
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '*' || c == '_')
        {
            listed += 1;
            *cols.entry(i).or_default() += 1;
        }
    }
    let aligned = cols.values().max().copied().unwrap_or(0);
    (listed * 2 > lines.len() && aligned >= 3).then_some(View::List)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_and_a_list_are_told_apart_and_a_config_is_neither() {
        // Get-NetAdapter's default view (learn.microsoft.com, Get-NetAdapter
        // example 1 output).
        let table = "Name   InterfaceDescription      ifIndex Status LinkSpeed\r\n----   --------------------      ------- ------ ---------\r\nSMB1   Mellanox ConnectX-4 Lx          5 Up     25 Gbps\r\n";
        assert_eq!(view(table), Some(View::Table));
        let list = "Name                 : SMB1\nInterfaceDescription : Mellanox ConnectX-4 Lx\nifIndex              : 5\nStatus               : Up\nLinkSpeed            : 25 Gbps\n";
        assert_eq!(view(list), Some(View::List));
        let config = "hostname tor1\ninterface Ethernet1/1\n  switchport mode trunk\n  description uplink : spine\n";
        assert_eq!(view(config), None);
        // A switch's LLDP table (EOS `show lldp neighbors`) is no
        // PowerShell table.
        let lldp = "Port          Neighbor Device ID       Neighbor Port ID    TTL\n---------- ------------------------ ---------------------- ---\nEt1           spine1                   Ethernet1           120\n";
        assert_eq!(view(lldp), None);
        assert_eq!(view("a : b\n"), None);
    }
}
