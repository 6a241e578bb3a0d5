//! Relative expressions, resolved at the tests' fetch instant: Wednesday 2 April 2025, 12:00:00
//! on the forum's clock (UTC+2).

use super::{check_in, check_table, context_at, parsed};
use crate::time::{DateContext, Precision, find_times, parse_time};

/// Cases that must read, with their reading at the fetch instant.
const READS: &[(&str, &str)] = &[
    // English.
    ("Today, 10:32 PM", "2025-04-02T22:32"),
    ("Yesterday, 08:11 AM", "2025-04-01T08:11"),
    ("Today at 10:11 PM", "2025-04-02T22:11"),
    ("Yesterday at 10:11 PM", "2025-04-01T22:11"),
    ("Yesterday 10:11:23 PM", "2025-04-01T22:11:23"),
    ("Today", "2025-04-02"),
    ("YESTERDAY", "2025-04-01"),
    ("Sunday at 10:11 PM", "2025-03-30T22:11"),
    ("Tuesday at 9:00 AM", "2025-04-01T09:00"),
    ("Wednesday at 10:11 PM", "2025-03-26T22:11"),
    ("3 hours ago", "2025-04-02T09:00"),
    ("an hour ago", "2025-04-02T11:00"),
    ("one hour ago", "2025-04-02T11:00"),
    ("5 minutes ago", "2025-04-02T11:55"),
    ("1 minute ago", "2025-04-02T11:59"),
    ("30 seconds ago", "2025-04-02T11:59:30"),
    ("A moment ago", "2025-04-02T12:00:00"),
    ("just now", "2025-04-02T12:00:00"),
    ("a few seconds ago", "2025-04-02T12:00:00"),
    ("2 days ago", "2025-03-31"),
    ("a day ago", "2025-04-01"),
    ("1 week ago", "2025-03-26"),
    ("2 weeks ago", "2025-03-19"),
    ("3 months ago", "2025-01"),
    ("a year ago", "2024-04"),
    ("2 years ago", "2023-04"),
    ("1 hour 5 minutes ago", "2025-04-02T10:55"),
    ("1 hour and 5 minutes ago", "2025-04-02T10:55"),
    ("1 day, 2 hours ago", "2025-04-01T10:00"),
    ("half an hour ago", "2025-04-02T11:30"),
    ("5m ago", "2025-04-02T11:55"),
    ("3h ago", "2025-04-02T09:00"),
    ("2d ago", "2025-03-31"),
    ("5 mins ago", "2025-04-02T11:55"),
    ("3 hrs ago", "2025-04-02T09:00"),
    // German.
    ("Heute um 22:11:05", "2025-04-02T22:11:05"),
    ("Heute, 22:11", "2025-04-02T22:11"),
    ("Gestern um 08:11", "2025-04-01T08:11"),
    ("Gestern, 08:11 Uhr", "2025-04-01T08:11"),
    ("vor 3 Stunden", "2025-04-02T09:00"),
    ("vor 5 Minuten", "2025-04-02T11:55"),
    ("vor einer Stunde", "2025-04-02T11:00"),
    ("vor 2 Tagen", "2025-03-31"),
    ("vor 1 Woche", "2025-03-26"),
    ("vor 3 Monaten", "2025-01"),
    ("vor 3 Std.", "2025-04-02T09:00"),
    ("Vorgestern", "2025-03-31"),
    ("Vorgestern um 10:11", "2025-03-31T10:11"),
    ("gerade eben", "2025-04-02T12:00:00"),
    ("Sonntag um 22:11", "2025-03-30T22:11"),
    // Chinese and Japanese.
    ("昨天 22:32", "2025-04-01T22:32"),
    ("昨天\u{a0}22:32", "2025-04-01T22:32"),
    ("昨天22:32", "2025-04-01T22:32"),
    ("前天 10:11", "2025-03-31T10:11"),
    ("今天 08:00", "2025-04-02T08:00"),
    ("3 小时前", "2025-04-02T09:00"),
    ("3小时前", "2025-04-02T09:00"),
    ("3\u{a0}小时前", "2025-04-02T09:00"),
    ("5 分钟前", "2025-04-02T11:55"),
    ("10 秒前", "2025-04-02T11:59:50"),
    ("10\u{a0}秒前", "2025-04-02T11:59:50"),
    ("4 天前", "2025-03-29"),
    ("刚刚", "2025-04-02T12:00:00"),
    ("3 小時前", "2025-04-02T09:00"),
    ("昨天", "2025-04-01"),
    ("半小时前", "2025-04-02T11:30"),
    ("一个小时前", "2025-04-02T11:00"),
    ("两天前", "2025-03-31"),
    ("3 个月前", "2025-01"),
    ("星期日 22:11", "2025-03-30T22:11"),
    ("3時間前", "2025-04-02T09:00"),
    ("5分前", "2025-04-02T11:55"),
    ("昨日 22:11", "2025-04-01T22:11"),
    ("一昨日", "2025-03-31"),
    // Korean.
    ("3시간 전", "2025-04-02T09:00"),
    ("오늘 10:11", "2025-04-02T10:11"),
    ("어제 오후 10:11", "2025-04-01T22:11"),
    // French.
    ("il y a 3 heures", "2025-04-02T09:00"),
    ("il y a une heure", "2025-04-02T11:00"),
    ("il y a 2 jours", "2025-03-31"),
    ("aujourd'hui à 10:11", "2025-04-02T10:11"),
    ("aujourd\u{2019}hui à 10:11", "2025-04-02T10:11"),
    ("Aujourd'hui", "2025-04-02"),
    ("hier à 22:11", "2025-04-01T22:11"),
    ("avant-hier à 22:11", "2025-03-31T22:11"),
    ("dimanche à 22h11", "2025-03-30T22:11"),
    ("à l'instant", "2025-04-02T12:00:00"),
    // Spanish.
    ("hace 3 horas", "2025-04-02T09:00"),
    ("hace una hora", "2025-04-02T11:00"),
    ("Hoy", "2025-04-02"),
    ("ayer a las 22:11", "2025-04-01T22:11"),
    ("hoy a las 9:05", "2025-04-02T09:05"),
    ("Anteayer", "2025-03-31"),
    ("hace un momento", "2025-04-02T12:00:00"),
    // Italian, Portuguese, Dutch, Polish, Swedish, Turkish.
    ("3 ore fa", "2025-04-02T09:00"),
    ("un'ora fa", "2025-04-02T11:00"),
    ("ieri alle 22:11", "2025-04-01T22:11"),
    ("há 3 horas", "2025-04-02T09:00"),
    ("3 horas atrás", "2025-04-02T09:00"),
    ("ontem às 22:11", "2025-04-01T22:11"),
    ("3 uur geleden", "2025-04-02T09:00"),
    ("gisteren om 22:11", "2025-04-01T22:11"),
    ("3 godziny temu", "2025-04-02T09:00"),
    ("godzinę temu", "2025-04-02T11:00"),
    ("wczoraj o 22:11", "2025-04-01T22:11"),
    ("3 timmar sedan", "2025-04-02T09:00"),
    ("igår kl. 22:11", "2025-04-01T22:11"),
    ("3 saat önce", "2025-04-02T09:00"),
    // Russian.
    ("вчера в 22:11", "2025-04-01T22:11"),
    ("сегодня в 10:11", "2025-04-02T10:11"),
    ("Сегодня в 10:11", "2025-04-02T10:11"),
    ("3 часа назад", "2025-04-02T09:00"),
    ("час назад", "2025-04-02T11:00"),
    ("5 минут назад", "2025-04-02T11:55"),
    ("только что", "2025-04-02T12:00:00"),
    ("Позавчера", "2025-03-31"),
    // Other engines.
    ("30 minutes ago", "2025-04-02T11:30"),
    ("1 hour ago", "2025-04-02T11:00"),
    ("3 hr. ago", "2025-04-02T09:00"),
    ("Today 22:11:23", "2025-04-02T22:11:23"),
    ("Вчера, 22:11", "2025-04-01T22:11"),
    ("Yesterday @ 10:11 PM", "2025-04-01T22:11"),
    ("Today, 22:11", "2025-04-02T22:11"),
    ("Gestern, 22:11", "2025-04-01T22:11"),
    ("Hoy, 22:11", "2025-04-02T22:11"),
    ("Ieri, 22:11", "2025-04-01T22:11"),
    ("Saturday at 9:05 AM", "2025-03-29T09:05"),
    ("Samstag um 09:05", "2025-03-29T09:05"),
    ("vor 1 Stunde und 5 Minuten", "2025-04-02T10:55"),
    ("il y a 5 minutes", "2025-04-02T11:55"),
    ("hace 2 días", "2025-03-31"),
    ("2 дня назад", "2025-03-31"),
    ("2 giorni fa", "2025-03-31"),
    ("2 dagen geleden", "2025-03-31"),
    ("2 dni temu", "2025-03-31"),
    ("一周前", "2025-03-26"),
    ("1 周前", "2025-03-26"),
    ("2 年前", "2023-04"),
    ("1年前", "2024-04"),
    ("5 分鐘前", "2025-04-02T11:55"),
    ("3日前", "2025-03-30"),
    ("5분 전", "2025-04-02T11:55"),
];

#[test]
fn relative_forms_resolve_at_the_fetch_instant() {
    check_table(
        READS
            .iter()
            .map(|(text, expected)| (*text, Some(*expected))),
    );
    for (text, _) in READS {
        let time = parsed(text);
        assert!(time.relative, "{text} is relative");
        assert_eq!(time.explicit_offset_seconds, None, "{text}");
    }
}

#[test]
fn lone_lowercase_day_words_are_read_only_as_whole_strings() {
    // Forums print day words as capitalised labels; in prose they are ordinary words.
    let context = super::context();
    for (text, expected) in [
        ("today", "2025-04-02"),
        ("yesterday", "2025-04-01"),
        ("hoy", "2025-04-02"),
        ("vorgestern", "2025-03-31"),
        ("anteayer", "2025-03-31"),
        ("позавчера", "2025-03-31"),
    ] {
        let whole = parse_time(text, &context).map(|time| time.to_iso8601());
        assert_eq!(whole.as_deref(), Some(expected), "{text}");
        assert!(find_times(text, &context).is_empty(), "{text}");
    }
    let found = find_times(
        "Upgrade your router today: 40% off, yesterday at 10:11 PM",
        &context,
    );
    let readings: Vec<String> = found.iter().map(|f| f.time.to_iso8601()).collect();
    assert_eq!(readings, ["2025-04-01T22:11"]);
}

#[test]
fn precisions_of_relative_forms() {
    assert_eq!(parsed("3 hours ago").precision, Precision::Minute);
    assert_eq!(parsed("5 minutes ago").precision, Precision::Minute);
    assert_eq!(parsed("10 秒前").precision, Precision::Second);
    assert_eq!(parsed("2 days ago").precision, Precision::Day);
    assert_eq!(parsed("1 week ago").precision, Precision::Day);
    assert_eq!(parsed("3 months ago").precision, Precision::Month);
    assert_eq!(parsed("just now").precision, Precision::Second);
    assert_eq!(parsed("Yesterday").precision, Precision::Day);
    assert_eq!(parsed("Yesterday 22:31").precision, Precision::Minute);
}

/// A fetch late on Sunday 30 March 2025 in New York (UTC-5): already Monday in UTC.
fn new_york_evening() -> DateContext {
    context_at("2025-03-31T02:30:00Z", Some(-5 * 3600))
}

#[test]
fn relative_days_follow_the_forum_clock_not_utc() {
    let context = new_york_evening();
    check_in("Yesterday 22:31", Some("2025-03-29T22:31"), &context);
    check_in("Today", Some("2025-03-30"), &context);
    check_in("3 hours ago", Some("2025-03-30T18:30"), &context);
    check_in("Saturday at 10:11 PM", Some("2025-03-29T22:11"), &context);
    check_in("Sunday at 10:11 PM", Some("2025-03-23T22:11"), &context);
    // Without an offset the same instant is read on UTC, where it is Monday already.
    let utc = context_at("2025-03-31T02:30:00Z", None);
    check_in("Yesterday 22:31", Some("2025-03-30T22:31"), &utc);
    check_in("Today", Some("2025-03-31"), &utc);
}

#[test]
fn relative_instants_come_back_to_the_fetch_instant() {
    let context = new_york_evening();
    let time = parse_time("3 hours ago", &context).map(|time| time.instant_in(&context));
    assert_eq!(
        time.map(|t| t.to_string()).as_deref(),
        Some("2025-03-30T23:30:00Z")
    );
    let now = parse_time("just now", &context).map(|time| time.instant_in(&context));
    assert_eq!(now, Some(context.fetched_at));
    let yesterday = parse_time("Yesterday 22:31", &context).map(|time| time.instant(-5 * 3600));
    assert_eq!(
        yesterday.map(|t| t.to_string()).as_deref(),
        Some("2025-03-30T03:31:00Z")
    );
}

#[test]
fn relative_forms_cross_month_and_year_ends() {
    let new_year = context_at("2025-01-01T00:30:00Z", Some(0));
    check_in("Yesterday 23:59", Some("2024-12-31T23:59"), &new_year);
    check_in("2 hours ago", Some("2024-12-31T22:30"), &new_year);
    check_in("1 month ago", Some("2024-12"), &new_year);
    check_in("Dec 31", Some("2024-12-31"), &new_year);
    check_in("Jan 1", Some("2025-01-01"), &new_year);
    check_in("Jan 2", Some("2025-01-02"), &new_year);
    check_in("Jan 3", Some("2024-01-03"), &new_year);
    let leap = context_at("2024-03-01T12:00:00Z", Some(0));
    check_in("Yesterday", Some("2024-02-29"), &leap);
}

#[test]
fn relative_forms_in_running_text() {
    let context = super::context();
    let text = "Last post by alice — Yesterday, 08:11 AM · bob replied 3 hours ago";
    let found = find_times(text, &context);
    let readings: Vec<String> = found.iter().map(|f| f.time.to_iso8601()).collect();
    assert_eq!(readings, ["2025-04-01T08:11", "2025-04-02T09:00"]);
    let text = "发表于 3&nbsp;小时前 | 最后回复 昨天\u{a0}22:32".replace("&nbsp;", "\u{a0}");
    let readings: Vec<String> = find_times(&text, &context)
        .iter()
        .map(|f| f.time.to_iso8601())
        .collect();
    assert_eq!(readings, ["2025-04-02T09:00", "2025-04-01T22:32"]);
}
