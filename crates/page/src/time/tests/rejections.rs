//! Texts that look a little like dates and must not be read as any.

use super::{check_table, context, found_in};

/// Each of these must neither parse as a whole nor be found inside.
const NOT_TIMES: &[&str] = &[
    // Version numbers, addresses, prices, plain numbers and years.
    "5.1.0",
    "version 1.10.12",
    "v2.10.2019",
    "5.1.20",
    "Windows 10.0.19045",
    "10.0.0.1",
    "192.168.1.12",
    "1,299.00",
    "$1,299.00",
    "42",
    "12345678901",
    "2019",
    "In 2019 we moved",
    "2019-2020",
    "2019/20",
    // Phone numbers and identifiers.
    "+49 30 12345678",
    "(555) 123-4567",
    "555-123-4567",
    "06-12-34-56-78",
    "ISBN 978-3-16-148410-0",
    "2019-09-29-1",
    // Kernel timestamps, fractions, scores.
    "[    1.290549] usb 1-1: new high-speed USB device",
    "3/4",
    "1/2 cup",
    "24/7",
    "2:1",
    "score 2:1 at half time",
    "page 3 of 10",
    // Invalid dates and times.
    "31.02.2019",
    "2019-13-01",
    "00.01.2019",
    "2019-02-30",
    "25:61",
    "32/01/2019",
    "13/13/2019",
    // Bare clocks and relative words without what they need.
    "10:11",
    "at 10:11 PM",
    "12:05:99",
    "Sunday",
    "Sunday 5 people came",
    "5 minutes",
    "I have 3 hours",
    "hace",
    "vor dem Haus",
    "il y a des gens",
    "hier klicken",
    "3 ago",
    // Words that only look like months or units.
    "a house",
    "the house",
    "in march we",
    "may be",
    "we may 2 times",
    "Sie kommen",
    "set 3 items",
    "30 march",
    // Abbreviations of other languages that are words elsewhere stand for a month only
    // before a year, or after a dotted day.
    "12 out of 20",
    "we won 3 set",
    "Mar 30abc",
    "30 March 2009abc",
    "a time ago",
    "12345 678",
];

#[test]
fn non_times_are_not_read() {
    check_table(NOT_TIMES.iter().map(|text| (*text, None)));
}

#[test]
fn a_bad_time_after_a_good_date_leaves_the_date() {
    let context = context();
    assert_eq!(
        found_in("29.09.2019 25:61", &context),
        [("29.09.2019".to_string(), "2019-09-29".to_string())]
    );
    assert_eq!(
        found_in("Posted 30.03.2009, 2:1 win", &context),
        [("30.03.2009".to_string(), "2009-03-30".to_string())]
    );
}

#[test]
fn numbers_glued_to_letters_or_chains_do_not_start_dates() {
    let context = context();
    assert!(found_in("ID12.03.2019", &context).is_empty());
    assert!(found_in("1.12.03.2019", &context).is_empty());
    assert_eq!(
        found_in("build 2019-09-29-nightly", &context),
        [("2019-09-29".to_string(), "2019-09-29".to_string())]
    );
}
