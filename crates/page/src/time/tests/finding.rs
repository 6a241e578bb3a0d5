//! `find_times` on longer texts: noise around dates, several dates, and the day and month order.

use super::{check, context, found_in};
use crate::time::{
    DateContext, DayMonthOrder, find_times, parse_time, parse_time_with_alternative,
};

/// Pairs of (matched text, reading) for the expectations below.
fn pairs(expected: &[(&str, &str)]) -> Vec<(String, String)> {
    expected
        .iter()
        .map(|(text, iso)| (text.to_string(), iso.to_string()))
        .collect()
}

#[test]
fn a_phpbb_post_header_among_noise() {
    let text = "Re: Kernel 5.1.0 panics at boot\nby alice » Mon Mar 30, 2009 10:11 pm\n\
                Posts: 1,299 Joined: Sun Jan 04, 2009 3:05 am\n[    1.290549] usb 1-1: new device, \
                IP 10.0.0.1, score 2:1";
    assert_eq!(
        found_in(text, &context()),
        pairs(&[
            ("Mon Mar 30, 2009 10:11 pm", "2009-03-30T22:11"),
            ("Sun Jan 04, 2009 3:05 am", "2009-01-04T03:05"),
        ])
    );
}

#[test]
fn a_vbulletin_thread_list_with_relative_and_absolute_dates() {
    let text = "Thread: Which oil? Replies: 12 Views: 3,456 Last Post: Today 10:32 PM by bob \
                | Yesterday <span class=\"time\">08:11 AM</span> | 03-30-2009, 10:11 PM \
                Join Date: Mar 2025 Posts: 17";
    let text = text
        .replace("<span class=\"time\">", "")
        .replace("</span>", "");
    assert_eq!(
        found_in(&text, &context()),
        pairs(&[
            ("Today 10:32 PM", "2025-04-02T22:32"),
            ("Yesterday 08:11 AM", "2025-04-01T08:11"),
            ("03-30-2009, 10:11 PM", "2009-03-30T22:11"),
            ("Mar 2025", "2025-03"),
        ])
    );
}

#[test]
fn german_smf_and_chinese_discuz_texts() {
    let text = "Antwort #3 am: 30. März 2025, 22:11:05 » Zitat von bob, Heute um 08:00:00 \
                — Version 2.0.19, Letzter Besuch: Gestern um 23:59:59";
    assert_eq!(
        found_in(text, &context()),
        pairs(&[
            ("30. März 2025, 22:11:05", "2025-03-30T22:11:05"),
            ("Heute um 08:00:00", "2025-04-02T08:00:00"),
            ("Gestern um 23:59:59", "2025-04-01T23:59:59"),
        ])
    );
    let text = "发表于 2025-3-30 22:11 | 只看该作者 回复 3\u{a0}天前 积分 1234 楼主 刚刚";
    assert_eq!(
        found_in(text, &context()),
        pairs(&[
            ("2025-3-30 22:11", "2025-03-30T22:11"),
            ("3\u{a0}天前", "2025-03-30"),
            ("刚刚", "2025-04-02T12:00:00"),
        ])
    );
}

#[test]
fn offsets_are_byte_offsets_on_character_boundaries() {
    let text = "Grüße — 昨天 22:32 — ünd 30. März 2009";
    let found = find_times(text, &context());
    assert_eq!(found.len(), 2);
    for item in &found {
        assert!(text.is_char_boundary(item.start) && text.is_char_boundary(item.end));
    }
    assert_eq!(text.get(found[0].start..found[0].end), Some("昨天 22:32"));
    assert_eq!(
        text.get(found[1].start..found[1].end),
        Some("30. März 2009")
    );
}

#[test]
fn ambiguous_day_and_month_keeps_both_readings() {
    let found = find_times("posted 03/04/2019", &context());
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].time.to_iso8601(), "2019-03-04");
    assert!(found[0].time.ambiguous_day_month);
    let alternative = found[0].alternative.map(|time| time.to_iso8601());
    assert_eq!(alternative.as_deref(), Some("2019-04-03"));
    assert!(
        found[0]
            .alternative
            .is_some_and(|time| time.ambiguous_day_month)
    );
    // Equal day and month, dotted dates, and year-first dates are not ambiguous.
    for text in ["03/03/2019", "03.04.2019", "2019/03/04", "13/04/2019"] {
        let time = parse_time_with_alternative(text, &context());
        assert!(time.is_some_and(|t| t.alternative.is_none() && !t.time.ambiguous_day_month));
    }
}

#[test]
fn the_context_order_decides_ambiguous_dates() {
    let day_first = context().with_day_month_order(DayMonthOrder::DayFirst);
    let time = parse_time_with_alternative("03/04/2019 10:00", &day_first);
    assert_eq!(
        time.map(|t| (t.time.to_iso8601(), t.alternative.map(|a| a.to_iso8601()))),
        Some((
            "2019-04-03T10:00".to_string(),
            Some("2019-03-04T10:00".to_string())
        ))
    );
    let month_first = context().with_day_month_order(DayMonthOrder::MonthFirst);
    let time = parse_time("03/04/2019", &month_first);
    assert_eq!(time.map(|t| t.to_iso8601()).as_deref(), Some("2019-03-04"));
    // French "le" reads day first unless the context insists otherwise.
    let time = parse_time("le 03/04/2019", &context());
    assert_eq!(time.map(|t| t.to_iso8601()).as_deref(), Some("2019-04-03"));
    let time = parse_time("le 03/04/2019", &month_first);
    assert_eq!(time.map(|t| t.to_iso8601()).as_deref(), Some("2019-03-04"));
}

#[test]
fn the_page_order_decides_ambiguous_dates() {
    let text = "Joined 25/12/2019 — last post 03/04/2020 22:11";
    assert_eq!(
        found_in(text, &context()),
        pairs(&[
            ("25/12/2019", "2019-12-25"),
            ("03/04/2020 22:11", "2020-04-03T22:11"),
        ])
    );
    let found = find_times(text, &context());
    let alternative = found[1].alternative.map(|time| time.to_iso8601());
    assert_eq!(alternative.as_deref(), Some("2020-03-04T22:11"));
    // A page with proof of both orders keeps the default.
    let text = "25/12/2019, 12/25/2019 and 03/04/2020";
    let readings: Vec<String> = find_times(text, &context())
        .iter()
        .map(|f| f.time.to_iso8601())
        .collect();
    assert_eq!(readings, ["2019-12-25", "2019-12-25", "2020-03-04"]);
    // A context with an order overrides the page.
    let month_first = context().with_day_month_order(DayMonthOrder::MonthFirst);
    let readings: Vec<String> = find_times("25/12/2019 03/04/2020", &month_first)
        .iter()
        .map(|f| f.time.to_iso8601())
        .collect();
    assert_eq!(readings, ["2019-12-25", "2020-03-04"]);
}

#[test]
fn a_weekday_settles_the_order() {
    // 4 March 2019 was a Monday and 3 April 2019 a Wednesday.
    let time = parse_time_with_alternative("Mon 03/04/2019", &context());
    assert_eq!(
        time.map(|t| (t.time.to_iso8601(), t.alternative.is_none())),
        Some(("2019-03-04".to_string(), true))
    );
    let time = parse_time_with_alternative("Wed 03/04/2019", &context());
    assert_eq!(
        time.map(|t| (t.time.to_iso8601(), t.time.ambiguous_day_month)),
        Some(("2019-04-03".to_string(), false))
    );
}

#[test]
fn attribute_values_and_unix_times() {
    let context: DateContext = context();
    let title = "  Mar 30, 2025 at 10:11 PM ";
    let time = parse_time(title, &context).map(|t| t.to_iso8601());
    assert_eq!(time.as_deref(), Some("2025-03-30T22:11"));
    // A string with more than one expression, or with other words, is not one time.
    assert!(parse_time("Posted Mar 30, 2025", &context).is_none());
    assert!(parse_time("Mar 30, 2025 and Mar 31, 2025", &context).is_none());
    let unix = crate::time::parse_unix_time("1743372665").map(|t| t.to_iso8601());
    assert_eq!(unix.as_deref(), Some("2025-03-30T22:11:05+00:00"));
    let millis = crate::time::parse_unix_time("1743372665000").map(|t| t.to_iso8601());
    assert_eq!(millis.as_deref(), Some("2025-03-30T22:11:05+00:00"));
    assert!(crate::time::parse_unix_time("42").is_none());
    assert!(crate::time::parse_unix_time("17433726650").is_none());
    assert!(crate::time::parse_unix_time("-1743372665").is_none());
}

#[test]
fn attribute_values_may_have_spaces_around_them() {
    check(
        "  2025-03-30T22:11:05+0000  ",
        Some("2025-03-30T22:11:05+00:00"),
    );
    check("\u{a0}Mar 30, 2025 at 10:11 PM\n", Some("2025-03-30T22:11"));
    check("   ", None);
    check("", None);
}

#[test]
fn adjacent_and_repeated_dates() {
    let text = "2019-09-29 – 2019-10-01; 30.03.2009/31.03.2009; Yesterday Today";
    let readings: Vec<String> = find_times(text, &context())
        .iter()
        .map(|f| f.time.to_iso8601())
        .collect();
    assert_eq!(
        readings,
        [
            "2019-09-29",
            "2019-10-01",
            "2009-03-30",
            "2009-03-31",
            "2025-04-01",
            "2025-04-02"
        ]
    );
}
