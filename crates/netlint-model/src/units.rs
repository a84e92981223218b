//! Units as types, parsed once at the edge.

use std::fmt;

/// The VLAN set lives in [`crate::vlans`]; this path is kept.
pub use crate::vlans::VlanSet;

/// A link or adapter speed in bits per second.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Speed(u64);

impl Speed {
    pub const fn from_bps(bps: u64) -> Self {
        Speed(bps)
    }
    pub const fn from_mbps(mbps: u64) -> Self {
        Speed(mbps * 1_000_000)
    }
    pub const fn from_gbps(gbps: u64) -> Self {
        Speed(gbps * 1_000_000_000)
    }
    pub const fn bps(self) -> u64 {
        self.0
    }
    pub fn mbps(self) -> u64 {
        self.0 / 1_000_000
    }
    /// Bytes per second carried at this speed.
    pub fn bytes_per_sec(self) -> f64 {
        self.0 as f64 / 8.0
    }
    pub fn times(self, n: u64) -> Speed {
        Speed(self.0.saturating_mul(n))
    }

    /// The slowest and fastest speed a design may give (10BASE-T to
    /// 10 Tb/s, beyond any Ethernet standard so far).
    pub const MIN: Speed = Speed::from_mbps(10);
    pub const MAX: Speed = Speed::from_gbps(10_000);

    /// Parses `"10G"`, `"2.5G"`, `"100M"`, `"25Gbps"`, `"1GbE"`, `"10 Gb"`, `"1.6T"`.
    pub fn parse(s: &str) -> Result<Speed, String> {
        let t = s.trim();
        let split = t
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(t.len());
        let (num, unit) = t.split_at(split);
        let unit = unit.trim();
        let mult: f64 = match unit.to_ascii_lowercase().as_str() {
            "t" | "tb" | "tbe" | "tbps" | "tbit" | "tbit/s" | "tb/s" => 1e12,
            "g" | "gb" | "gbe" | "gbps" | "gbit" | "gbit/s" | "gb/s" => 1e9,
            "m" | "mb" | "mbe" | "mbps" | "mbit" | "mbit/s" | "mb/s" => 1e6,
            _ => {
                return Err(format!(
                    "`{s}` is not a speed: write a number and a unit, like \"10G\", \"2.5G\" or \"100M\""
                ))
            }
        };
        let n: f64 = num
            .parse()
            .map_err(|_| format!("`{s}` is not a speed: the number `{num}` is not valid"))?;
        let bps = n * mult;
        if !(bps.is_finite() && (Speed::MIN.0 as f64..=Speed::MAX.0 as f64).contains(&bps)) {
            return Err(format!(
                "speed `{s}` is out of range: it must be from {} to {}",
                Speed::MIN,
                Speed::MAX
            ));
        }
        Ok(Speed(bps.round() as u64))
    }
}

impl fmt::Display for Speed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.0;
        if b >= 1_000_000_000_000 && b % 1_000_000_000_000 == 0 {
            write!(f, "{}T", b / 1_000_000_000_000)
        } else if b >= 1_000_000_000 {
            if b % 1_000_000_000 == 0 {
                write!(f, "{}G", b / 1_000_000_000)
            } else {
                let g = b as f64 / 1e9;
                write!(f, "{}G", trim_float(g))
            }
        } else if b % 1_000_000 == 0 {
            write!(f, "{}M", b / 1_000_000)
        } else {
            write!(f, "{}M", trim_float(b as f64 / 1e6))
        }
    }
}

/// Formats a float with up to 2 decimals, without trailing zeros.
pub fn trim_float(x: f64) -> String {
    // Whole numbers, the common case, without float formatting.
    if x.fract() == 0.0 && x.abs() < 1e15 {
        return (x as i64).to_string();
    }
    let s = format!("{x:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}

/// How the user wrote an MTU, so messages can repeat it in their words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MtuForm {
    /// Not written: the default.
    Default,
    /// `mtu = N`: the largest payload (IP packet).
    Mtu,
    /// `jumbo_packet = N` (host NIC): N - 14.
    JumboPacket(u32),
    /// `frame_size = N` (switch, link): N - 18 untagged, N - 22 tagged.
    FrameSize(u32),
}

/// The largest Ethernet payload an element carries, in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Mtu {
    /// The largest untagged payload (IP packet).
    pub payload: u32,
    pub form: MtuForm,
}

/// Ethernet header (14) + FCS (4).
pub const FRAME_OVERHEAD: u32 = 18;
/// An 802.1Q tag.
pub const VLAN_TAG: u32 = 4;
/// The Windows "Jumbo Packet" property counts the 14-byte header.
pub const JUMBO_PACKET_HEADER: u32 = 14;
/// Smallest and largest MTU an Ethernet device can be set to here.
pub const MIN_MTU: u32 = 576;
pub const MAX_MTU: u32 = 9216;
/// Largest frame size a switch port can be set to (MAX_MTU + header/FCS/tag).
pub const MAX_FRAME: u32 = 9238;

impl Mtu {
    pub const STANDARD: Mtu = Mtu {
        payload: 1500,
        form: MtuForm::Default,
    };

    /// `mtu = N` as written.
    #[allow(clippy::self_named_constructors)]
    pub fn mtu(payload: u32) -> Mtu {
        Mtu {
            payload,
            form: MtuForm::Mtu,
        }
    }

    pub fn from_jumbo_packet(jp: u32) -> Mtu {
        Mtu {
            payload: jp.saturating_sub(JUMBO_PACKET_HEADER),
            form: MtuForm::JumboPacket(jp),
        }
    }

    pub fn from_frame_size(frame: u32) -> Mtu {
        Mtu {
            payload: frame.saturating_sub(FRAME_OVERHEAD),
            form: MtuForm::FrameSize(frame),
        }
    }

    /// The largest payload this element forwards in a frame with or
    /// without an 802.1Q tag. A plain `mtu` is taken to allow for the tag;
    /// a `frame_size` does not.
    pub fn payload_limit(&self, tagged: bool) -> u32 {
        match self.form {
            MtuForm::FrameSize(f) => {
                f.saturating_sub(FRAME_OVERHEAD + if tagged { VLAN_TAG } else { 0 })
            }
            _ => self.payload,
        }
    }

    /// The frame (header + payload + FCS, plus tag) a payload of this size needs.
    pub fn frame_for(payload: u32, tagged: bool) -> u32 {
        payload + FRAME_OVERHEAD + if tagged { VLAN_TAG } else { 0 }
    }

    /// `mtu = 9000`, `jumbo_packet = 9014 (MTU 9000)`, ...
    pub fn describe(&self) -> String {
        match self.form {
            MtuForm::Default => format!("MTU {} (default)", self.payload),
            MtuForm::Mtu => format!("MTU {}", self.payload),
            MtuForm::JumboPacket(j) => format!("jumbo_packet = {j} (MTU {})", self.payload),
            MtuForm::FrameSize(f) => format!("frame_size = {f}"),
        }
    }
}

impl Default for Mtu {
    fn default() -> Self {
        Mtu::STANDARD
    }
}

/// A bandwidth in bytes per second (SMB limits are given that way).
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd, Default)]
pub struct Bandwidth {
    pub bytes_per_sec: f64,
}

impl Bandwidth {
    pub fn from_bytes_per_sec(b: f64) -> Self {
        Bandwidth { bytes_per_sec: b }
    }
    pub fn bits_per_sec(&self) -> f64 {
        self.bytes_per_sec * 8.0
    }
    pub fn gbps(&self) -> f64 {
        self.bits_per_sec() / 1e9
    }
    /// In PowerShell MB (1,048,576 bytes) per second.
    pub fn ps_megabytes(&self) -> f64 {
        self.bytes_per_sec / 1_048_576.0
    }

    /// The range a limit may take: 1 byte per second to 1250 PowerShell GB
    /// per second (about 10 Tb/s).
    pub const MIN_BYTES: f64 = 1.0;
    pub const MAX_BYTES: f64 = 1250.0 * 1_073_741_824.0;

    /// `"1250MB"` (PowerShell units: KB, MB, GB, TB are powers of 1024),
    /// a plain number of bytes per second, or bits per second with a speed
    /// suffix and `ps` or `/s` (`"8Gbps"`, `"10Gb/s"`).
    pub fn parse(s: &str) -> Result<Bandwidth, String> {
        let t = s.trim();
        let split = t
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(t.len());
        let (num, unit) = t.split_at(split);
        let n: f64 = num
            .parse()
            .map_err(|_| format!("`{s}` is not a bandwidth: write \"1250MB\" or \"8Gbps\""))?;
        let unit = unit.trim();
        let bytes = match unit {
            "" | "B" => n,
            "KB" | "kB" => n * 1024.0,
            "MB" => n * 1_048_576.0,
            "GB" => n * 1_073_741_824.0,
            "TB" => n * 1_099_511_627_776.0,
            _ => {
                let lower = unit.to_ascii_lowercase();
                let mult = match lower.as_str() {
                    "kbps" | "kb/s" | "kbit/s" => 1e3,
                    "mbps" | "mb/s" | "mbit/s" => 1e6,
                    "gbps" | "gb/s" | "gbit/s" => 1e9,
                    "tbps" | "tb/s" | "tbit/s" => 1e12,
                    _ => {
                        return Err(format!(
                            "`{s}` is not a bandwidth: use PowerShell units (\"1250MB\", \"2GB\") or bits per second (\"8Gbps\")"
                        ))
                    }
                };
                n * mult / 8.0
            }
        };
        if !(bytes.is_finite() && (Bandwidth::MIN_BYTES..=Bandwidth::MAX_BYTES).contains(&bytes)) {
            return Err(format!(
                "bandwidth `{s}` is out of range: it must be from 1 byte to 1250GB per second (PowerShell units, about 10 Tb/s)"
            ));
        }
        Ok(Bandwidth {
            bytes_per_sec: bytes,
        })
    }
}

impl fmt::Display for Bandwidth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} MB/s ({} Gb/s)",
            trim_float(self.ps_megabytes()),
            trim_float(self.gbps())
        )
    }
}

/// A duration in seconds: `"90s"`, `"5m"`, `"1h30m"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Duration {
    pub seconds: u64,
}

impl Duration {
    pub fn parse(s: &str) -> Result<Duration, String> {
        let err = || format!("`{s}` is not a duration: write \"90s\", \"5m\" or \"1h30m\"");
        let t = s.trim();
        if t.is_empty() {
            return Err(err());
        }
        let mut total: u64 = 0;
        let mut num = String::new();
        for c in t.chars() {
            if c.is_ascii_digit() {
                num.push(c);
                continue;
            }
            let mult = match c {
                'h' => 3600,
                'm' => 60,
                's' => 1,
                _ => return Err(err()),
            };
            let n: u64 = num.parse().map_err(|_| err())?;
            total = total
                .checked_add(n.checked_mul(mult).ok_or_else(err)?)
                .ok_or_else(err)?;
            num.clear();
        }
        if !num.is_empty() {
            return Err(err());
        }
        Ok(Duration { seconds: total })
    }
}

impl fmt::Display for Duration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (h, m, s) = (
            self.seconds / 3600,
            (self.seconds % 3600) / 60,
            self.seconds % 60,
        );
        if h > 0 {
            write!(f, "{h}h")?;
        }
        if m > 0 {
            write!(f, "{m}m")?;
        }
        if s > 0 || self.seconds == 0 {
            write!(f, "{s}s")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trimmed_floats() {
        assert_eq!(trim_float(25.0), "25");
        assert_eq!(trim_float(0.0), "0");
        assert_eq!(trim_float(-0.0), "0");
        assert_eq!(trim_float(2.5), "2.5");
        assert_eq!(trim_float(1.234), "1.23");
        assert_eq!(trim_float(16.777), "16.78");
        assert_eq!(trim_float(9.999), "10");
        assert_eq!(trim_float(1e20), "100000000000000000000");
    }

    #[test]
    fn speeds() {
        assert_eq!(Speed::parse("10G").unwrap(), Speed::from_gbps(10));
        assert_eq!(Speed::parse("2.5G").unwrap().bps(), 2_500_000_000);
        assert_eq!(Speed::parse("100M").unwrap(), Speed::from_mbps(100));
        assert_eq!(Speed::parse("25Gbps").unwrap(), Speed::from_gbps(25));
        assert_eq!(Speed::parse("1GbE").unwrap(), Speed::from_gbps(1));
        assert_eq!(Speed::parse("40gb").unwrap(), Speed::from_gbps(40));
        assert_eq!(Speed::parse("100Mbps").unwrap(), Speed::from_mbps(100));
        assert!(Speed::parse("10").is_err());
        assert!(Speed::parse("fast").is_err());
        assert!(Speed::parse("0G").is_err());
        assert_eq!(Speed::from_gbps(10).to_string(), "10G");
        assert_eq!(Speed::parse("2.5G").unwrap().to_string(), "2.5G");
        assert_eq!(Speed::from_mbps(100).to_string(), "100M");
    }

    #[test]
    fn mtu_forms() {
        let jp = Mtu::from_jumbo_packet(9014);
        assert_eq!(jp.payload, 9000);
        assert_eq!(Mtu::from_jumbo_packet(1514).payload, 1500);
        let fs = Mtu::from_frame_size(9018);
        assert_eq!(fs.payload_limit(false), 9000);
        assert_eq!(fs.payload_limit(true), 8996);
        assert_eq!(Mtu::mtu(9216).payload_limit(true), 9216);
        assert_eq!(Mtu::frame_for(9000, true), 9022);
    }

    #[test]
    fn bandwidths() {
        assert_eq!(
            Bandwidth::parse("1250MB").unwrap().bytes_per_sec,
            1250.0 * 1_048_576.0
        );
        assert_eq!(Bandwidth::parse("8Gbps").unwrap().bytes_per_sec, 1e9);
        assert_eq!(Bandwidth::parse("10Gb/s").unwrap().bytes_per_sec, 1.25e9);
        assert_eq!(
            Bandwidth::parse("2GB").unwrap().bytes_per_sec,
            2.0 * 1_073_741_824.0
        );
        assert!(Bandwidth::parse("lots").is_err());
        assert!(Bandwidth::parse("0MB").is_err());
    }

    #[test]
    fn durations() {
        assert_eq!(Duration::parse("90s").unwrap().seconds, 90);
        assert_eq!(Duration::parse("5m").unwrap().seconds, 300);
        assert_eq!(Duration::parse("1h30m").unwrap().seconds, 5400);
        assert!(Duration::parse("5x").is_err());
        assert!(Duration::parse("5").is_err());
        assert_eq!(Duration { seconds: 5400 }.to_string(), "1h30m");
    }
}
