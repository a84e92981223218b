//! The files of a ZIP archive, as `Get-SDDCDiagnosticInfo` delivers its
//! collection (`HealthTest-<cluster>-<date>.ZIP`, written with .NET's
//! `System.IO.Compression`). The format is PKWARE's APPNOTE.TXT (6.3): the
//! end of central directory record (section 4.3.16) gives the central
//! directory (4.3.12), whose headers give each entry's local header
//! (4.3.7); entries are stored (method 0) or deflated (method 8, inflated
//! by miniz_oxide) and checked against their CRC-32. ZIP64 archives (more
//! than 65,535 entries or 4 GiB) and encrypted entries are refused with a
//! message: unpack those and import the folder.

use crate::error::{ErrorKind, InputError};

/// Entries larger than this are refused (a collection file is megabytes).
const MAX_ENTRY: usize = 1 << 30;

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?))
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

fn err(file: &str, why: String) -> InputError {
    InputError {
        file: file.to_string(),
        line: 1,
        column: 0,
        kind: ErrorKind::WrongKind(why),
    }
}

/// Whether the bytes start like a ZIP archive (a local file header, or an
/// empty archive's end record).
pub fn is_zip(bytes: &[u8]) -> bool {
    bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06")
}

/// The entries of the archive whose names `want` accepts, with their
/// contents, in archive order; the other entries' names with empty
/// contents (so that they can be counted). Names use `/`.
pub fn entries(
    file: &str,
    bytes: &[u8],
    want: impl Fn(&str) -> bool,
) -> Result<Vec<(String, Vec<u8>)>, InputError> {
    // The end record is in the last 22 + 65,535 bytes (its comment).
    let min = bytes.len().saturating_sub(22 + 65_535);
    let eocd = (min..bytes.len().saturating_sub(21))
        .rev()
        .find(|&i| bytes[i..].starts_with(b"PK\x05\x06"))
        .ok_or_else(|| {
            err(
                file,
                "not a ZIP archive: no end of central directory record (a truncated download?)"
                    .into(),
            )
        })?;
    let count = u16_at(bytes, eocd + 10).unwrap_or(0);
    let cd_size = u32_at(bytes, eocd + 12).unwrap_or(0);
    let cd_off = u32_at(bytes, eocd + 16).unwrap_or(0);
    if count == 0xFFFF || cd_size == 0xFFFF_FFFF || cd_off == 0xFFFF_FFFF {
        return Err(err(
            file,
            "a ZIP64 archive (over 65,535 entries or 4 GiB): unpack it and import the folder"
                .into(),
        ));
    }
    let mut at = cd_off as usize;
    let mut out = Vec::new();
    for _ in 0..count {
        if u32_at(bytes, at) != Some(0x0201_4b50) {
            return Err(err(
                file,
                format!("ZIP central directory damaged at byte {at}"),
            ));
        }
        let bad = || {
            err(
                file,
                format!("ZIP central directory header at byte {at} is cut short"),
            )
        };
        let flags = u16_at(bytes, at + 8).ok_or_else(bad)?;
        let method = u16_at(bytes, at + 10).ok_or_else(bad)?;
        let crc = u32_at(bytes, at + 16).ok_or_else(bad)?;
        let csize = u32_at(bytes, at + 20).ok_or_else(bad)? as usize;
        let usize_ = u32_at(bytes, at + 24).ok_or_else(bad)? as usize;
        let nlen = u16_at(bytes, at + 28).ok_or_else(bad)? as usize;
        let xlen = u16_at(bytes, at + 30).ok_or_else(bad)? as usize;
        let clen = u16_at(bytes, at + 32).ok_or_else(bad)? as usize;
        let local = u32_at(bytes, at + 42).ok_or_else(bad)? as usize;
        let name_bytes = bytes.get(at + 46..at + 46 + nlen).ok_or_else(bad)?;
        let name = String::from_utf8_lossy(name_bytes).replace('\\', "/");
        at += 46 + nlen + xlen + clen;
        if name.ends_with('/') {
            continue;
        }
        if !want(&name) {
            out.push((name, Vec::new()));
            continue;
        }
        if flags & 1 != 0 {
            return Err(err(file, format!("ZIP entry {name} is encrypted")));
        }
        if u32_at(bytes, local) != Some(0x0403_4b50) {
            return Err(err(
                file,
                format!("ZIP entry {name}: no local header at byte {local}"),
            ));
        }
        let lname = u16_at(bytes, local + 26).unwrap_or(0) as usize;
        let lextra = u16_at(bytes, local + 28).unwrap_or(0) as usize;
        let start = local + 30 + lname + lextra;
        let data = bytes
            .get(start..start.saturating_add(csize))
            .ok_or_else(|| {
                err(
                    file,
                    format!("ZIP entry {name} is cut short (truncated archive?)"),
                )
            })?;
        if usize_ > MAX_ENTRY {
            return Err(err(file, format!("ZIP entry {name} is larger than 1 GiB")));
        }
        let content = match method {
            0 => data.to_vec(),
            8 => miniz_oxide::inflate::decompress_to_vec_with_limit(data, usize_.max(1))
                .map_err(|e| err(file, format!("ZIP entry {name} does not inflate: {e:?}")))?,
            m => {
                return Err(err(
                    file,
                    format!("ZIP entry {name} uses compression method {m}; only stored and deflated entries are read"),
                ))
            }
        };
        if content.len() != usize_ || crc32(&content) != crc {
            return Err(err(
                file,
                format!("ZIP entry {name} fails its CRC-32 or size check (damaged archive)"),
            ));
        }
        out.push((name, content));
    }
    Ok(out)
}

/// CRC-32 (IEEE 802.3, reflected, as ZIP uses it).
pub fn crc32(data: &[u8]) -> u32 {
    let mut table = [0u32; 256];
    for (i, t) in table.iter_mut().enumerate() {
        let mut c = i as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
        *t = c;
    }
    let mut c = !0u32;
    for &b in data {
        c = table[((c ^ b as u32) & 0xFF) as usize] ^ (c >> 8);
    }
    !c
}

/// A ZIP archive of `(name, content, deflate)` entries, for tests and
/// benchmarks.
pub fn write(entries: &[(&str, &[u8], bool)]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for (name, content, deflate) in entries {
        let data = if *deflate {
            miniz_oxide::deflate::compress_to_vec(content, 6)
        } else {
            content.to_vec()
        };
        let method: u16 = if *deflate { 8 } else { 0 };
        let crc = crc32(content);
        let local = out.len() as u32;
        let head = |sig: u32, v: &mut Vec<u8>| {
            v.extend(sig.to_le_bytes());
        };
        head(0x0403_4b50, &mut out);
        out.extend(20u16.to_le_bytes());
        out.extend(0u16.to_le_bytes());
        out.extend(method.to_le_bytes());
        out.extend([0u8; 4]);
        out.extend(crc.to_le_bytes());
        out.extend((data.len() as u32).to_le_bytes());
        out.extend((content.len() as u32).to_le_bytes());
        out.extend((name.len() as u16).to_le_bytes());
        out.extend(0u16.to_le_bytes());
        out.extend(name.as_bytes());
        out.extend(&data);
        head(0x0201_4b50, &mut central);
        central.extend(20u16.to_le_bytes());
        central.extend(20u16.to_le_bytes());
        central.extend(0u16.to_le_bytes());
        central.extend(method.to_le_bytes());
        central.extend([0u8; 4]);
        central.extend(crc.to_le_bytes());
        central.extend((data.len() as u32).to_le_bytes());
        central.extend((content.len() as u32).to_le_bytes());
        central.extend((name.len() as u16).to_le_bytes());
        central.extend([0u8; 12]);
        central.extend(local.to_le_bytes());
        central.extend(name.as_bytes());
    }
    let cd_off = out.len() as u32;
    let cd_size = central.len() as u32;
    out.extend(central);
    out.extend(0x0605_4b50u32.to_le_bytes());
    out.extend([0u8; 4]);
    out.extend((entries.len() as u16).to_le_bytes());
    out.extend((entries.len() as u16).to_le_bytes());
    out.extend(cd_size.to_le_bytes());
    out.extend(cd_off.to_le_bytes());
    out.extend(0u16.to_le_bytes());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc_of_the_check_string() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    }

    #[test]
    fn stored_and_deflated_entries_read_back_and_damage_is_an_error() {
        let big = "<Objs>".repeat(1000);
        let z = write(&[
            ("a/Node_X/GetNetAdapter.xml", big.as_bytes(), true),
            ("a/readme.txt", b"hello", false),
        ]);
        assert!(is_zip(&z));
        let e = entries("c.zip", &z, |n| n.ends_with(".xml")).unwrap();
        assert_eq!(e[0].0, "a/Node_X/GetNetAdapter.xml");
        assert_eq!(e[0].1, big.as_bytes());
        assert_eq!(e[1], ("a/readme.txt".to_string(), Vec::new()));
        let mut bad = z.clone();
        bad[70] ^= 0xFF;
        assert!(entries("c.zip", &bad, |_| true).is_err());
        let e = entries("c.zip", &z[..z.len() - 30], |_| true).unwrap_err();
        assert!(e.to_string().contains("no end of central directory"), "{e}");
        assert!(entries("c.zip", b"PK\x03\x04", |_| true).is_err());
    }
}
