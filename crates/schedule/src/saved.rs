//! A policy's state that the lists cannot tell again, as text a driver can keep.
//!
//! Everything a policy learns from pages it could learn again from the same pages, and a driver
//! that keeps its pages (`trawl watch` keeps them in the crawl's store) rebuilds the lists from
//! them after a restart. What no page tells is how the policy spent its budget: what it carried
//! from earlier windows, the follow-ups still waiting for budget, and each unit's visiting
//! credit, which says when it is next due. A restart that forgot them would start a fresh
//! budget in the middle of a spent window and poll from new phases; kept, a restarted policy
//! plans exactly as the uninterrupted one would.
//!
//! The text is lines of a keyword and numbers separated by spaces; floating-point numbers are
//! written as the hexadecimal digits of their bits, so that they read back exactly (a decimal
//! rendering rounds, and a credit a hair off puts a poll a window off).

use crate::ScheduleError;
use crate::lists::ListId;

/// The first line of every saved state: the format, so that a state of another format is
/// refused rather than misread.
pub(crate) const SAVED_STATE_FORMAT: &str = "trawl-schedule-state 1";

/// Writes lines of a saved state.
#[derive(Debug, Default)]
pub(crate) struct StateWriter {
    text: String,
}

impl StateWriter {
    pub(crate) fn new(policy: &str) -> Self {
        let mut writer = StateWriter::default();
        writer.text.push_str(SAVED_STATE_FORMAT);
        writer.text.push('\n');
        writer.line("policy", &[policy]);
        writer
    }

    /// One line: `keyword` and its fields.
    pub(crate) fn line(&mut self, keyword: &str, fields: &[&str]) {
        self.text.push_str(keyword);
        for field in fields {
            self.text.push(' ');
            self.text.push_str(field);
        }
        self.text.push('\n');
    }

    pub(crate) fn finish(self) -> String {
        self.text
    }
}

/// A float as the hexadecimal digits of its bits.
pub(crate) fn float_field(value: f64) -> String {
    format!("{:016x}", value.to_bits())
}

/// Reads the lines of a saved state written for `policy`: yields each line's keyword and fields.
pub(crate) fn state_lines<'text>(
    saved: &'text str,
    policy: &str,
) -> Result<Vec<(&'text str, Vec<&'text str>)>, ScheduleError> {
    let mut lines = saved.lines();
    if lines.next() != Some(SAVED_STATE_FORMAT) {
        return Err(ScheduleError::SavedState(
            "not a saved state of this format".to_string(),
        ));
    }
    let mut parsed = Vec::new();
    for line in lines {
        let mut words = line.split(' ');
        let keyword = words.next().unwrap_or_default();
        parsed.push((keyword, words.collect::<Vec<&str>>()));
    }
    match parsed.first() {
        Some(("policy", fields)) if fields.as_slice() == [policy] => Ok(parsed.split_off(1)),
        Some(("policy", fields)) => Err(ScheduleError::SavedState(format!(
            "the state of policy {:?}, not of {policy:?}",
            fields.join(" ")
        ))),
        _ => Err(ScheduleError::SavedState(
            "the state names no policy".to_string(),
        )),
    }
}

/// The fields of one line, read by position.
pub(crate) struct Fields<'line> {
    keyword: &'line str,
    fields: &'line [&'line str],
}

impl<'line> Fields<'line> {
    /// The fields of a line, which must have exactly `count` of them.
    pub(crate) fn of(
        keyword: &'line str,
        fields: &'line [&'line str],
        count: usize,
    ) -> Result<Self, ScheduleError> {
        if fields.len() != count {
            return Err(ScheduleError::SavedState(format!(
                "a {keyword:?} line has {} fields, not {count}",
                fields.len()
            )));
        }
        Ok(Fields { keyword, fields })
    }

    fn malformed(&self, index: usize) -> ScheduleError {
        ScheduleError::SavedState(format!(
            "field {} of a {:?} line is malformed: {:?}",
            index + 1,
            self.keyword,
            self.fields[index]
        ))
    }

    pub(crate) fn number<T: std::str::FromStr>(&self, index: usize) -> Result<T, ScheduleError> {
        self.fields[index]
            .parse()
            .map_err(|_| self.malformed(index))
    }

    pub(crate) fn float(&self, index: usize) -> Result<f64, ScheduleError> {
        u64::from_str_radix(self.fields[index], 16)
            .map(f64::from_bits)
            .map_err(|_| self.malformed(index))
    }

    pub(crate) fn list(&self, index: usize) -> Result<ListId, ScheduleError> {
        self.number(index).map(ListId)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `saved` read for `policy` gives `expected` (keywords and fields) or an error containing
    /// the text given.
    fn check(saved: &str, policy: &str, expected: Result<&[(&str, &[&str])], &str>) {
        let got = state_lines(saved, policy);
        match (got, expected) {
            (Ok(lines), Ok(expected)) => {
                let expected: Vec<(&str, Vec<&str>)> = expected
                    .iter()
                    .map(|(keyword, fields)| (*keyword, fields.to_vec()))
                    .collect();
                assert_eq!(lines, expected, "{saved:?}");
            }
            (Err(error), Err(text)) => assert!(error.to_string().contains(text), "{error}"),
            (got, expected) => panic!("{saved:?}: got {got:?}, expected {expected:?}"),
        }
    }

    #[test]
    fn saved_lines_read_back_only_for_their_policy_and_format() {
        let mut writer = StateWriter::new("trawl");
        writer.line("credit", &["7", &float_field(0.1)]);
        let saved = writer.finish();
        check(
            &saved,
            "trawl",
            Ok(&[("credit", &["7", "3fb999999999999a"])]),
        );
        check(&saved, "lws", Err("the state of policy \"trawl\""));
        check(
            "trawl-schedule-state 2\n",
            "trawl",
            Err("not a saved state"),
        );
        check(
            "trawl-schedule-state 1\ncredit 7 0\n",
            "trawl",
            Err("names no policy"),
        );
    }

    #[test]
    fn floats_read_back_to_the_bit() {
        for value in [0.1, 1.0 / 3.0, -2.5e-300, f64::MAX, 0.0] {
            let text = float_field(value);
            let fields = [text.as_str()];
            let read = Fields::of("credit", &fields, 1).unwrap().float(0).unwrap();
            assert_eq!(read.to_bits(), value.to_bits(), "{value}");
        }
        let fields = ["x"];
        let line = Fields::of("credit", &fields, 1).unwrap();
        assert!(line.float(0).is_err());
        assert!(line.number::<u32>(0).is_err());
        assert!(Fields::of("credit", &fields, 2).is_err());
    }
}
