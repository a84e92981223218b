//! The files of a ZIP archive, as `Get-SDDCDiagnosticInfo` delivers its
//! collection (`HealthTest-<cluster>-<date>.ZIP`, written with .NET's
//! `System.IO.Compression`). The format is PKWARE's APPNOTE.TXT (6.3): the
//! end of central directory record (section 4.3.16) gives the central
//! directory (4.3.12), whose headers give each entry's local header
//! (4.3.7); entries are stored (method 0) or deflated (method 8, inflated
//! by miniz_oxide) and checked against their CRC-32. ZIP64 archives (more
//! than 65,535 entries or 4 GiB) and encrypted entries are refused with a
//! message: unpack those and import the folder.
//!
//! ZIP bombs: the entries read (only the network files; the others are
//! never inflated) may inflate to at most [`MAX_INFLATED`] bytes together,
//! and, past [`RATIO_FLOOR`] bytes, to at most [`MAX_RATIO`] times the
//! archive's size. Both are checked against the sizes the central
//! directory declares before anything is inflated, and no entry is
//! inflated past its declared size (a lie is a damaged entry), so memory
//! stays bounded whatever the archive says. Past a limit the archive is
//! refused with the limit named: unpack it and import the folder, whose
//! files are read under `--max-file-size` each.

use crate::error::{ErrorKind, InputError};

/// The most the entries read of one archive inflate to together: 256 MiB
/// (a cluster's network files are megabytes per node).
pub const MAX_INFLATED: u64 = 256 << 20;

/// The most the entries read inflate to per byte of the archive, once
/// they are past [`RATIO_FLOOR`]: XML compresses about 10 to 30 times,
/// deflate at most about 1,032 times.
pub const MAX_RATIO: u64 = 100;

/// Below this many inflated bytes the ratio is not checked (a small
/// archive of repetitive text may compress far better than 100 to 1).
pub const RATIO_FLOOR: u64 = 16 << 20;

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
    let mut inflated: u64 = 0;
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
        inflated += usize_ as u64;
        if inflated > MAX_INFLATED {
            return Err(err(
                file,
                format!(
                    "ZIP archive refused: its network files inflate past {} MiB (at entry {name}), the most netlint inflates of one archive (a ZIP bomb?); unpack it and import the folder",
                    MAX_INFLATED >> 20
                ),
            ));
        }
        if inflated > RATIO_FLOOR && inflated > MAX_RATIO.saturating_mul(bytes.len() as u64) {
            return Err(err(
                file,
                format!(
                    "ZIP archive refused: its network files inflate to over {} times its size of {} bytes (at entry {name}), more than {MAX_RATIO} to 1 past {} MiB (a ZIP bomb?); unpack it and import the folder",
                    inflated / (bytes.len() as u64).max(1),
                    bytes.len(),
                    RATIO_FLOOR >> 20
                ),
            ));
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
    let raw: Vec<RawEntry<'_>> = entries
        .iter()
        .map(|(name, content, deflate)| RawEntry {
            name,
            data: if *deflate {
                self::deflate(content)
            } else {
                content.to_vec()
            },
            deflated: *deflate,
            crc: crc32(content),
            size: content.len() as u32,
        })
        .collect();
    write_raw(&raw)
}

/// `content` deflated as [`write`] deflates it (raw deflate, level 6).
pub fn deflate(content: &[u8]) -> Vec<u8> {
    miniz_oxide::deflate::compress_to_vec(content, 6)
}

/// An entry whose data is already stored or deflated, with the CRC-32 and
/// size of its content: one deflated block can stand for many entries
/// (tests of the inflation limits).
pub struct RawEntry<'a> {
    pub name: &'a str,
    pub data: Vec<u8>,
    pub deflated: bool,
    pub crc: u32,
    pub size: u32,
}

/// A ZIP archive of entries given as [`RawEntry`]s.
pub fn write_raw(entries: &[RawEntry<'_>]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for e in entries {
        let (name, data) = (e.name, &e.data);
        let method: u16 = if e.deflated { 8 } else { 0 };
        let crc = e.crc;
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
        out.extend(e.size.to_le_bytes());
        out.extend((name.len() as u16).to_le_bytes());
        out.extend(0u16.to_le_bytes());
        out.extend(name.as_bytes());
        out.extend(data);
        head(0x0201_4b50, &mut central);
        central.extend(20u16.to_le_bytes());
        central.extend(20u16.to_le_bytes());
        central.extend(0u16.to_le_bytes());
        central.extend(method.to_le_bytes());
        central.extend([0u8; 4]);
        central.extend(crc.to_le_bytes());
        central.extend((data.len() as u32).to_le_bytes());
        central.extend(e.size.to_le_bytes());
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

    /// `n` entries of `mib` MiB of zeros each, deflated once (about 1 KiB
    /// per MiB): a small archive that inflates to `n * mib` MiB.
    fn bomb(n: usize, mib: usize) -> Vec<u8> {
        bomb_padded(n, mib, 0)
    }

    /// [`bomb`] with a stored entry of `pad` bytes (never read) that makes
    /// the archive larger, so the ratio stays under 100 to 1.
    fn bomb_padded(n: usize, mib: usize, pad: usize) -> Vec<u8> {
        let zeros = vec![0u8; mib << 20];
        let data = miniz_oxide::deflate::compress_to_vec(&zeros, 9);
        let crc = crc32(&zeros);
        let names: Vec<String> = (0..n)
            .map(|i| format!("Node_HV{i:03}/GetNetAdapter.xml"))
            .collect();
        let mut raw: Vec<RawEntry<'_>> = names
            .iter()
            .map(|name| RawEntry {
                name,
                data: data.clone(),
                deflated: true,
                crc,
                size: zeros.len() as u32,
            })
            .collect();
        let padding = vec![b'x'; pad];
        if pad > 0 {
            raw.push(RawEntry {
                name: "padding.bin",
                crc: crc32(&padding),
                size: pad as u32,
                data: padding,
                deflated: false,
            });
        }
        write_raw(&raw)
    }

    #[test]
    fn an_archive_inflating_past_the_cap_is_refused_before_it_is_inflated() {
        // 300 MiB of network files from about 300 KiB, in an archive of
        // 3.3 MiB (a stored file not read): under 100 to 1, past 256 MiB.
        let z = bomb_padded(300, 1, 3 << 20);
        assert!(z.len() < 4 << 20, "{}", z.len());
        let xml = |n: &str| n.ends_with(".xml");
        let t = std::time::Instant::now();
        let e = entries("bomb.zip", &z, xml).unwrap_err();
        let msg = e.to_string();
        assert!(msg.contains("inflate past 256 MiB"), "{msg}");
        assert!(msg.contains("unpack it and import the folder"), "{msg}");
        // Refused from the declared sizes: nothing near 256 MiB inflated.
        assert!(t.elapsed() < std::time::Duration::from_secs(20));
        // Entries not read are never inflated: the same archive is fine
        // when no entry is wanted.
        assert!(entries("bomb.zip", &z, |_| false).is_ok());
    }

    #[test]
    fn an_archive_inflating_past_the_ratio_is_refused() {
        // 20 MiB from about 20 KiB: under the cap, 1,000 to 1.
        let z = bomb(20, 1);
        let msg = entries("bomb.zip", &z, |_| true).unwrap_err().to_string();
        assert!(msg.contains("more than 100 to 1"), "{msg}");
        // Under the floor the ratio is not checked: 4 MiB of zeros read.
        let z = bomb(4, 1);
        assert_eq!(entries("small.zip", &z, |_| true).unwrap().len(), 4);
    }
}
