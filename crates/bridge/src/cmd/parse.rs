//! Value parsers of the command line: `--agent-grace`.

use std::time::Duration;

/// `--agent-grace` ([`bua_bridge::ServerConfig::agent_grace`]): `None` is `off`.
pub(crate) type Grace = Option<Duration>;

/// Parses `--agent-grace`: a number with a unit `ms`, `s`, `m` or `h` (`90s`, `5m`), or `off`.
pub(crate) fn parse_grace(text: &str) -> std::result::Result<Grace, String> {
    if text == "off" {
        return Ok(None);
    }
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let n: u64 = number.parse().map_err(|_| {
        format!("`{text}`: expected a number with a unit (500ms, 90s, 5m, 1h) or `off`")
    })?;
    let ms = match unit {
        "ms" => n,
        "s" => n.saturating_mul(1000),
        "m" => n.saturating_mul(60_000),
        "h" => n.saturating_mul(3_600_000),
        _ => {
            return Err(format!(
                "`{text}`: the unit must be ms, s, m or h (e.g. 5m), or say `off`"
            ))
        }
    };
    Ok(Some(Duration::from_millis(ms)))
}
