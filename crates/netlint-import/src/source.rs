//! Lines of a captured file, with capture noise taken off: line breaks of
//! any kind, a CLI prompt, pager leftovers, syslog messages spliced in, the
//! timestamps a terminal logger writes in front of lines.

/// What was taken off a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Noise {
    None,
    /// The whole line is a CLI prompt (`tor1# show running-config`, `tor1#`).
    Prompt,
    /// A `--More--` pager prompt was cut off the front; the indentation of
    /// what remains is lost.
    Pager,
    /// A syslog message was cut off the end.
    Syslog,
    /// The whole line is a syslog message, or a pager prompt and nothing else.
    Only,
}

/// One line of input.
#[derive(Clone, Copy, Debug)]
pub struct SrcLine<'a> {
    /// 1-based line number.
    pub no: u32,
    /// The line as captured, without its line break.
    pub raw: &'a str,
    /// What remains after noise was cut, without trailing white space,
    /// leading white space kept.
    pub text: &'a str,
    /// Leading white space of `text` (a tab counts one); `None` when a
    /// pager prompt destroyed it.
    pub indent: Option<usize>,
    pub noise: Noise,
    /// Bytes of a terminal logger's timestamp (and the blank after it) cut
    /// off the front of `raw` ([`logger_stamp`]); 0 when none was.
    pub stamp: usize,
}

impl<'a> SrcLine<'a> {
    /// The text without its indentation.
    pub fn body(&self) -> &'a str {
        self.text.trim_start()
    }

    /// The line as captured without a logger's timestamp: `raw` when none
    /// was cut.
    pub fn unstamped(&self) -> &'a str {
        &self.raw[self.stamp..]
    }
}

/// Splits on `\r\n`, `\n` and a lone `\r`, each one line break.
pub fn split_lines(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                out.push(&text[start..i]);
                start = i + 1;
            }
            b'\r' => {
                out.push(&text[start..i]);
                if bytes.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    if start < bytes.len() {
        out.push(&text[start..]);
    }
    out
}

/// The lines of `text`, cleaned. A terminal logger's timestamp at the
/// start of a line ([`logger_stamp`]) is cut from every line that has one
/// when most lines of the file have one (a capture the logger stamped
/// throughout), else from prompt lines only: each line then reads as
/// without it, and keeps its line number in the file.
pub fn lines(text: &str) -> Vec<SrcLine<'_>> {
    let raws = split_lines(text);
    let stamps: Vec<Option<usize>> = raws.iter().map(|r| logger_stamp(r)).collect();
    let filled = raws.iter().filter(|r| !r.trim().is_empty()).count();
    let stamped = stamps.iter().filter(|s| s.is_some()).count();
    let throughout = stamped * 2 > filled;
    raws.into_iter()
        .zip(stamps)
        .enumerate()
        .map(|(i, (raw, stamp))| {
            let cut = match stamp {
                Some(n) if throughout || is_prompt(raw[n..].trim_end()) => n,
                _ => 0,
            };
            clean(i as u32 + 1, raw, cut)
        })
        .collect()
}

/// What a summary says of the timestamps [`lines`] cut: the first line cut
/// and the text of the note, `None` when none was.
pub fn stamp_note(lines: &[SrcLine<'_>]) -> Option<(u32, String)> {
    let first = lines.iter().find(|l| l.stamp > 0)?;
    let n = lines.iter().filter(|l| l.stamp > 0).count();
    Some((
        first.no,
        format!(
            "a terminal logger's timestamp (`{}`) was taken off the start of {n} line(s); line numbers are the file's",
            first.raw[..first.stamp].trim_end()
        ),
    ))
}

fn clean(no: u32, raw: &str, stamp: usize) -> SrcLine<'_> {
    let mut noise = Noise::None;
    let mut text = &raw[stamp..];
    let mut pager = false;
    if let Some(after) = after_pager(text) {
        text = after;
        pager = true;
        noise = Noise::Pager;
    }
    if let Some(cut) = syslog_start(text) {
        text = &text[..cut];
        noise = Noise::Syslog;
    }
    let text = text.trim_end();
    if noise != Noise::None && text.trim().is_empty() {
        noise = Noise::Only;
    } else if noise == Noise::None && is_prompt(text) {
        noise = Noise::Prompt;
    }
    let indent = if pager {
        None
    } else {
        Some(text.len() - text.trim_start().len())
    };
    SrcLine {
        no,
        raw,
        text,
        indent,
        noise,
        stamp,
    }
}

/// The length of the timestamp a terminal logger (SecureCRT, MobaXterm,
/// Tera Term, `ts`-like scripts) writes at the start of a line, with the
/// one blank after it: `[2020-01-30 16:11:46] `, `[2020-01-30
/// 16:11:46.123] `, `[2020/01/30 16:11:46]`, `[2020-01-30T16:11:46Z] `,
/// `[16:11:46.123] `, `[Thu Jan 30 16:11:46.123 2020] ` and, without
/// brackets, `2020-01-30 16:11:46 ` or `2020-01-30 16:11:46.123 `.
/// `None` when the line starts otherwise. No config line starts so.
pub fn logger_stamp(line: &str) -> Option<usize> {
    let b = line.as_bytes();
    let bracket = b.first() == Some(&b'[');
    let mut i = usize::from(bracket);
    if bracket {
        if let Some(end) = time(b, i).or_else(|| tera_term(b, i)) {
            i = end;
        } else {
            i = date_time(b, i)?;
        }
        if b.get(i) != Some(&b']') {
            return None;
        }
        i += 1;
        if matches!(b.get(i), Some(b' ' | b'\t')) {
            i += 1;
        }
        return Some(i);
    }
    i = date_time(b, i)?;
    match b.get(i) {
        None => Some(i),
        Some(b' ' | b'\t') => Some(i + 1),
        _ => None,
    }
}

/// `n` ASCII digits at `i`: the index after them.
fn digits(b: &[u8], i: usize, n: usize) -> Option<usize> {
    let s = b.get(i..i + n)?;
    s.iter().all(u8::is_ascii_digit).then_some(i + n)
}

/// `HH:MM:SS`, with a fraction (`.123`, `,123`): the index after it.
fn time(b: &[u8], i: usize) -> Option<usize> {
    let i = digits(b, i, 2)?;
    (b.get(i) == Some(&b':')).then_some(())?;
    let i = digits(b, i + 1, 2)?;
    (b.get(i) == Some(&b':')).then_some(())?;
    let mut i = digits(b, i + 1, 2)?;
    if matches!(b.get(i), Some(b'.' | b',')) && b.get(i + 1).is_some_and(u8::is_ascii_digit) {
        i += 1;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
    }
    Some(i)
}

/// `YYYY-MM-DD HH:MM:SS` (or `/`, or `T`), the time as [`time`], then
/// `Z` or an offset (`+01:00`, `-0800`) if any: the index after it.
fn date_time(b: &[u8], i: usize) -> Option<usize> {
    let i = digits(b, i, 4)?;
    let sep = *b.get(i)?;
    if sep != b'-' && sep != b'/' {
        return None;
    }
    let i = digits(b, i + 1, 2)?;
    (b.get(i) == Some(&sep)).then_some(())?;
    let i = digits(b, i + 1, 2)?;
    if !matches!(b.get(i), Some(b' ' | b'T')) {
        return None;
    }
    let mut i = time(b, i + 1)?;
    match b.get(i) {
        Some(b'Z') => i += 1,
        Some(b'+' | b'-') => {
            let j = digits(b, i + 1, 2)?;
            let j = if b.get(j) == Some(&b':') { j + 1 } else { j };
            i = digits(b, j, 2)?;
        }
        _ => {}
    }
    Some(i)
}

/// Tera Term's `Thu Jan 30 16:11:46.123 2020`: the index after it.
fn tera_term(b: &[u8], i: usize) -> Option<usize> {
    const DAYS: [&[u8]; 7] = [b"Mon", b"Tue", b"Wed", b"Thu", b"Fri", b"Sat", b"Sun"];
    const MONTHS: [&[u8]; 12] = [
        b"Jan", b"Feb", b"Mar", b"Apr", b"May", b"Jun", b"Jul", b"Aug", b"Sep", b"Oct", b"Nov",
        b"Dec",
    ];
    let word = |i: usize, set: &[&[u8]]| {
        let w = b.get(i..i + 3)?;
        (set.contains(&w) && b.get(i + 3) == Some(&b' ')).then_some(i + 4)
    };
    let i = word(i, &DAYS)?;
    let mut i = word(i, &MONTHS)?;
    if b.get(i) == Some(&b' ') {
        i += 1;
    }
    let i = digits(b, i, 2).or_else(|| digits(b, i, 1))?;
    (b.get(i) == Some(&b' ')).then_some(())?;
    let i = time(b, i + 1)?;
    (b.get(i) == Some(&b' ')).then_some(())?;
    digits(b, i + 1, 4)
}

/// The text after the last pager prompt (`--More--`, `-- More --`,
/// `<--- More --->`), with the backspaces, carriage returns and escape
/// sequences a terminal used to erase it.
fn after_pager(text: &str) -> Option<&str> {
    let markers = ["--More--", "-- More --", "<--- More --->"];
    // The pager prints its prompt at the start of a line; the output
    // resumes on the same line once the prompt is erased.
    let lead = text.len() - text.trim_start().len();
    let (pos, len) = markers
        .iter()
        .find(|m| text[lead..].starts_with(**m))
        .map(|m| (lead, m.len()))?;
    let mut rest = &text[pos + len..];
    loop {
        let before = rest.len();
        rest = rest.trim_start_matches(['\u{8}', ' ', '\t']);
        if let Some(esc) = rest.strip_prefix("\u{1b}[") {
            let end = esc
                .find(|c: char| c.is_ascii_alphabetic())
                .map_or(esc.len(), |e| e + 1);
            rest = &esc[end..];
        }
        if rest.len() == before {
            break;
        }
    }
    Some(rest)
}

/// Where a syslog message begins in a line: at its timestamp (`2024 Jan  1
/// 10:00:00 tor1 `, `*Mar  1 00:01:23.456: `, `Jan  1 10:00:00 `) when
/// one precedes the `%FACILITY-N-MNEMONIC:` tag, else at the tag.
fn syslog_start(text: &str) -> Option<usize> {
    let tag = find_syslog_tag(text)?;
    let head = &text[..tag];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let mut start = tag;
    for m in MONTHS {
        let mut from = 0;
        while let Some(p) = head[from..].find(m) {
            let p = from + p;
            from = p + m.len();
            let after = &head[p + m.len()..];
            let digits_follow = after
                .trim_start_matches(' ')
                .starts_with(|c: char| c.is_ascii_digit());
            let word_start = p == 0 || !head.as_bytes()[p - 1].is_ascii_alphanumeric();
            if digits_follow && word_start && after.contains(':') && p < start {
                start = p;
            }
        }
    }
    let mut s = start;
    if s < tag {
        let before = head[..s].trim_end_matches(' ');
        // Bytes, not a `str` slice: the fourth byte from the end may sit
        // inside a multi-byte character (four ASCII digits never do).
        if before.len() >= 4
            && before.as_bytes()[before.len() - 4..]
                .iter()
                .all(|b| b.is_ascii_digit())
        {
            s = before.len() - 4;
        } else if before.ends_with('*') {
            s = before.len() - 1;
        }
    }
    Some(s)
}

/// The byte offset of a `%FAC-N-MNEMONIC:` tag (`%ETHPORT-5-IF_UP:`,
/// `%LINK-3-UPDOWN:`, `%SYS-5-CONFIG_I:`).
fn find_syslog_tag(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(p) = text[i..].find('%') {
        let p = i + p;
        i = p + 1;
        let rest = &bytes[p + 1..];
        let end = rest
            .iter()
            .position(|b| {
                !(b.is_ascii_uppercase() || b.is_ascii_digit() || *b == b'_' || *b == b'-')
            })
            .unwrap_or(rest.len());
        if rest.get(end) != Some(&b':') {
            continue;
        }
        let tag = &text[p + 1..p + 1 + end];
        let parts: Vec<&str> = tag.split('-').collect();
        if parts.len() >= 3
            && parts
                .iter()
                .any(|s| s.len() == 1 && s.as_bytes()[0].is_ascii_digit())
            && parts[0].starts_with(|c: char| c.is_ascii_uppercase())
            && parts.iter().all(|s| !s.is_empty())
        {
            return Some(p);
        }
    }
    None
}

/// `tor1# show running-config`, `leaf1>sh run`, `OS10# show
/// running-configuration`, `tor1(config)#`, a bare `tor1#`.
fn is_prompt(text: &str) -> bool {
    if text.starts_with(char::is_whitespace) {
        return false;
    }
    let Some(p) = text.find(['#', '>']) else {
        return false;
    };
    let (host, rest) = (&text[..p], text[p + 1..].trim());
    if host.is_empty()
        || !host.chars().all(|c| {
            c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ':' | '(' | ')' | '/')
        })
    {
        return false;
    }
    let first = rest.split_whitespace().next().unwrap_or("");
    rest.is_empty()
        || matches!(
            first,
            "show" | "sh" | "sho" | "terminal" | "term" | "copy" | "more" | "dir" | "exit"
        )
}

/// The byte offset where each line starts, by the same line breaks as
/// [`split_lines`]: `line_starts(t)[n - 1]` is where line `n` begins.
pub fn line_starts(text: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut out = vec![0];
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => out.push(i + 1),
            b'\r' => {
                if bytes.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
                out.push(i + 1);
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// The byte range of line `line` (1-based, by the line breaks of
/// [`split_lines`]) of `text` as read from disk: without its line break,
/// its indentation, trailing white space and a byte-order mark. `None`
/// past the end. What a finding on an imported value underlines.
pub fn line_span(text: &str, line: u32) -> Option<std::ops::Range<usize>> {
    let starts = line_starts(text);
    let i = (line as usize).checked_sub(1)?;
    let start = *starts.get(i)?;
    if start >= text.len() && i > 0 {
        return None;
    }
    let end = starts.get(i + 1).copied().unwrap_or(text.len());
    let raw = &text[start..end];
    let body = raw.trim_end_matches(['\r', '\n']).trim_end();
    // A logger's timestamp is no part of what the line says.
    let bom = body.len() - body.trim_start_matches('\u{feff}').len();
    let stamp = bom + logger_stamp(&body[bom..]).unwrap_or(0);
    let lead = stamp
        + (body[stamp..].len()
            - body[stamp..]
                .trim_start_matches(['\u{feff}', ' ', '\t'])
                .len());
    Some(start + lead..start + body.len())
}

/// The 1-based line holding byte `offset`.
pub fn line_of(starts: &[usize], offset: usize) -> u32 {
    match starts.binary_search(&offset) {
        Ok(i) => i as u32 + 1,
        Err(i) => i as u32,
    }
}

#[cfg(test)]
mod tests {
    /// Found by `mutated_inputs_never_panic`: a multi-byte character four
    /// bytes before a syslog timestamp is no year, and no panic.
    #[test]
    fn a_character_before_the_timestamp_is_not_split() {
        let line = "\u{93}abc Jan 1 10:00:00 %LINK-3-UPDOWN: up";
        assert_eq!(super::syslog_start(line), Some(line.find("Jan").unwrap()));
        let year = "2020 Jan 1 10:00:00 %LINK-3-UPDOWN: up";
        assert_eq!(super::syslog_start(year), Some(0));
    }

    use super::*;

    #[test]
    fn every_line_break_counts_once() {
        assert_eq!(split_lines("a\r\nb\nc\rd"), vec!["a", "b", "c", "d"]);
        assert_eq!(split_lines("a\n\n"), vec!["a", ""]);
        assert_eq!(split_lines("a\r\r\nb"), vec!["a", "", "b"]);
    }

    #[test]
    fn line_span_skips_indentation_breaks_and_bom() {
        let t = "\u{feff}hostname a\r\n  vlan 10  \rend";
        assert_eq!(&t[line_span(t, 1).unwrap()], "hostname a");
        assert_eq!(&t[line_span(t, 2).unwrap()], "vlan 10");
        assert_eq!(&t[line_span(t, 3).unwrap()], "end");
        assert_eq!(line_span(t, 4), None);
        assert_eq!(line_span(t, 0), None);
        assert_eq!(line_span("", 1), Some(0..0));
    }

    #[test]
    fn line_starts_agree_with_split_lines() {
        let t = "a\r\nb\nc\rd";
        let starts = line_starts(t);
        assert_eq!(starts, vec![0, 3, 5, 7]);
        assert_eq!(line_of(&starts, 0), 1);
        assert_eq!(line_of(&starts, 4), 2);
        assert_eq!(line_of(&starts, 7), 4);
    }

    #[test]
    fn prompts() {
        let l = lines("tor1# show running-config\nhostname tor1\ntor1#\n  tor1#x");
        assert_eq!(l[0].noise, Noise::Prompt);
        assert_eq!(l[1].noise, Noise::None);
        assert_eq!(l[2].noise, Noise::Prompt);
        assert_eq!(l[3].noise, Noise::None);
        assert_eq!(lines("leaf1(config)#show run")[0].noise, Noise::Prompt);
        assert_eq!(lines("# comment")[0].noise, Noise::None);
    }

    #[test]
    fn syslog_is_cut_with_its_timestamp() {
        let l = lines(
            "  switchport trunk allowed vlan 10,20 2024 Jan  5 10:01:02 tor1 %ETHPORT-5-IF_UP: Interface Ethernet1/1 is up",
        );
        assert_eq!(l[0].text, "  switchport trunk allowed vlan 10,20");
        assert_eq!(l[0].noise, Noise::Syslog);
        let l = lines("*Mar  1 00:01:23.456: %LINK-3-UPDOWN: Interface Gi0/1, changed state to up");
        assert_eq!(l[0].noise, Noise::Only);
        let l = lines("description 50% of %uplinks: left");
        assert_eq!(l[0].noise, Noise::None);
        let l = lines(" description x%LINEPROTO-5-UPDOWN: Line protocol");
        assert_eq!(l[0].text, " description x");
    }

    #[test]
    fn logger_stamps_and_their_blank() {
        for (line, rest) in [
            ("[2020-01-30 16:11:46] N7K-1#", "N7K-1#"),
            ("[2020-01-30 16:11:46]   vlan 10", "  vlan 10"),
            ("[2020-01-30 16:11:46.123] x", "x"),
            ("[2020/01/30 16:11:46]x", "x"),
            ("[2020-01-30T16:11:46Z] x", "x"),
            ("[2020-01-30T16:11:46+01:00] x", "x"),
            ("[16:11:46.123] x", "x"),
            ("[Thu Jan 30 16:11:46.123 2020] x", "x"),
            ("[Thu Jan  3 16:11:46 2020] x", "x"),
            ("2020-01-30 16:11:46 x", "x"),
            ("2020-01-30 16:11:46,5\tx", "x"),
            ("[2020-01-30 16:11:46]", ""),
            ("2020-01-30 16:11:46", ""),
        ] {
            let n = logger_stamp(line).unwrap_or_else(|| panic!("{line}"));
            assert_eq!(&line[n..], rest, "{line}");
        }
        for line in [
            "hostname tor1",
            "[2020-01-30] x",
            "2020-01-30 16:11:46x",
            "16:11:46 x",
            "[16:11] x",
            "[2020-01-30 16:11:46 x",
            " [2020-01-30 16:11:46] x",
            "*Mar  1 00:01:23.456: %LINK-3-UPDOWN: x",
        ] {
            assert_eq!(logger_stamp(line), None, "{line}");
        }
    }

    #[test]
    fn stamps_are_cut_throughout_or_off_prompts() {
        // Stamped throughout: every stamp is cut, indentation kept.
        let l = lines("[2020-01-30 16:11:46] tor1# show run\n[2020-01-30 16:11:46] interface Ethernet1/1\n[2020-01-30 16:11:46]   switchport\n[2020-01-30 16:11:46] ");
        assert_eq!(l[0].noise, Noise::Prompt);
        assert_eq!(l[1].text, "interface Ethernet1/1");
        assert_eq!((l[2].text, l[2].indent), ("  switchport", Some(2)));
        assert_eq!(l[2].unstamped(), "  switchport");
        assert_eq!(l[3].text, "");
        assert_eq!(l.iter().map(|l| l.no).collect::<Vec<_>>(), [1, 2, 3, 4]);
        // Stamped here and there: only the prompt's stamp is cut.
        let l = lines("[2020-01-30 16:11:46] tor1# show run\nhostname tor1\nfeature lldp\n[2020-01-30 16:11:46] x");
        assert_eq!((l[0].noise, l[0].stamp), (Noise::Prompt, 22));
        assert_eq!((l[3].text, l[3].stamp), ("[2020-01-30 16:11:46] x", 0));
        let (line, note) = stamp_note(&l).unwrap();
        assert_eq!(line, 1);
        assert!(
            note.contains("`[2020-01-30 16:11:46]`") && note.contains(" 1 line"),
            "{note}"
        );
        assert_eq!(stamp_note(&lines("hostname x")), None);
        // A syslog message after the stamp is still cut.
        let l = lines("[2020-01-30 16:11:46]   mtu 9216 2024 Jan  5 10:01:02 tor1 %ETHPORT-5-IF_UP: up\n[2020-01-30 16:11:46] x");
        assert_eq!((l[0].text, l[0].noise), ("  mtu 9216", Noise::Syslog));
    }

    #[test]
    fn line_span_skips_a_logger_stamp() {
        let t = "[2020-01-30 16:11:46]   vlan 10\r\n2020-01-30 16:11:46 x";
        assert_eq!(&t[line_span(t, 1).unwrap()], "vlan 10");
        assert_eq!(&t[line_span(t, 2).unwrap()], "x");
    }

    #[test]
    fn pager_leftovers_are_cut() {
        let l = lines(" --More-- \u{8}\u{8}\u{8}\u{8}\u{8}\u{8}\u{8}\u{8}\u{8}\u{8}          \u{8}\u{8}  switchport mode trunk");
        assert_eq!(l[0].text, "switchport mode trunk");
        assert_eq!(l[0].indent, None);
        assert_eq!(lines(" --More-- ")[0].noise, Noise::Only);
        // Only at the start of a line: a comment that names the pager stays.
        assert_eq!(lines("! a `--More--` leftover")[0].noise, Noise::None);
    }
}
