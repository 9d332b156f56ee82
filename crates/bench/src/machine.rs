//! What the benchmark ran on: CPU, cores, memory, OS, and the date (UTC), for the report's header.

use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

/// The machine and tool versions, as shown in the report.
#[derive(Debug, Clone, Default)]
pub struct MachineInfo {
    /// `model name` from `/proc/cpuinfo`.
    pub cpu: String,
    /// Logical cores available to this process.
    pub cores: usize,
    /// `MemTotal` from `/proc/meminfo`, GiB.
    pub memory_gib: f64,
    /// `PRETTY_NAME` from `/etc/os-release` and the kernel release.
    pub os: String,
    /// `rustc --version`.
    pub rustc: String,
    /// `node --version`.
    pub node: String,
    /// The 1-minute load average when the run started.
    pub load: String,
    /// The date and time the run started, `YYYY-MM-DD HH:MM UTC`.
    pub date: String,
}

/// Reads what can be read; unknown parts stay `"unknown"`.
pub fn collect(node: &str) -> MachineInfo {
    let read = |p: &str| std::fs::read_to_string(p).unwrap_or_default();
    let cpu = read("/proc/cpuinfo")
        .lines()
        .find_map(|l| l.strip_prefix("model name"))
        .and_then(|l| l.split_once(':'))
        .map(|(_, v)| v.trim().to_string())
        .unwrap_or_else(|| "unknown".into());
    let memory_gib = read("/proc/meminfo")
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:"))
        .and_then(|v| v.split_whitespace().next()?.parse::<f64>().ok())
        .map(|kib| kib / (1024.0 * 1024.0))
        .unwrap_or(0.0);
    let pretty = read("/etc/os-release")
        .lines()
        .find_map(|l| l.strip_prefix("PRETTY_NAME="))
        .map(|v| v.trim_matches('"').to_string())
        .unwrap_or_else(|| "unknown OS".into());
    let kernel = read("/proc/sys/kernel/osrelease").trim().to_string();
    MachineInfo {
        cpu,
        cores: std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1),
        memory_gib,
        os: format!("{pretty}, Linux {kernel}"),
        rustc: version_of("rustc", &["--version"]),
        node: version_of(node, &["--version"]),
        load: read("/proc/loadavg")
            .split_whitespace()
            .next()
            .unwrap_or("?")
            .to_string(),
        date: utc_now(),
    }
}

fn version_of(program: &str, args: &[&str]) -> String {
    Command::new(program)
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".into())
}

/// Now as `YYYY-MM-DD HH:MM UTC`.
pub fn utc_now() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    format_utc(secs)
}

/// Seconds since the Unix epoch as `YYYY-MM-DD HH:MM UTC` (proleptic Gregorian calendar).
pub fn format_utc(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02} UTC",
        rem / 3600,
        (rem % 3600) / 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_dates_are_civil_dates() {
        assert_eq!(format_utc(0), "1970-01-01 00:00 UTC");
        assert_eq!(format_utc(951_782_400), "2000-02-29 00:00 UTC");
        assert_eq!(format_utc(1_767_225_599), "2025-12-31 23:59 UTC");
    }
}
