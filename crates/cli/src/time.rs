//! Reading instants from the command line.

use anyhow::{Context, Result, bail};
use jiff::Timestamp;

/// Parses `end` (the history's last instant), an RFC 3339 instant, or a plain date
/// (`2025-06-01`, meaning midnight UTC).
pub fn parse_instant(text: &str, history_end: i64) -> Result<Timestamp> {
    if text == "end" {
        return Timestamp::from_second(history_end).context("history end is out of range");
    }
    if let Ok(instant) = text.parse::<Timestamp>() {
        return Ok(instant);
    }
    if let Ok(date) = text.parse::<jiff::civil::Date>() {
        return Ok(date.to_zoned(jiff::tz::TimeZone::UTC)?.timestamp());
    }
    bail!(
        "cannot read {text:?} as a time: write `end`, a date like 2025-06-01, or an instant like 2025-06-01T12:00:00Z"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_three_forms() {
        assert_eq!(parse_instant("end", 10).unwrap().as_second(), 10);
        assert_eq!(
            parse_instant("2025-06-01", 0).unwrap().to_string(),
            "2025-06-01T00:00:00Z"
        );
        assert_eq!(
            parse_instant("2025-06-01T12:00:00+02:00", 0)
                .unwrap()
                .to_string(),
            "2025-06-01T10:00:00Z"
        );
        assert!(
            parse_instant("yesterday", 0)
                .unwrap_err()
                .to_string()
                .contains("2025-06-01")
        );
    }
}
