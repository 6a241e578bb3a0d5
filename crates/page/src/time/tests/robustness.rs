//! Robustness on arbitrary text, and speed on page-sized texts.
//!
//! The random texts come from a fixed SplitMix64 stream, so a failure names a reproducible seed.

use super::{context, context_at};
use crate::test_stream::Stream;
use crate::time::{DateContext, find_times, parse_time, parse_time_with_alternative};

/// Pieces that the grammars care about, so that random texts reach deep into them.
const PIECES: &[&str] = &[
    "0",
    "1",
    "2",
    "9",
    "12",
    "13",
    "29",
    "31",
    "2019",
    "99",
    "1999999999999",
    "4294967296",
    ".",
    "-",
    "/",
    ":",
    " ",
    "\u{a0}",
    ",",
    "T",
    "Z",
    "+",
    "\u{2212}",
    "am",
    "pm",
    "p.m.",
    "Mar",
    "März",
    "mars",
    "марта",
    "年",
    "月",
    "日",
    "昨天",
    "前",
    "小时",
    "个月",
    "半",
    "一",
    "ago",
    "vor",
    "il y a",
    "hace",
    "Yesterday",
    "Today",
    "Sunday",
    "at",
    "um",
    "'",
    "\u{2019}",
    "(",
    ")",
    "（",
    "é",
    "😀",
    "\u{0}",
    "a",
    "an",
    "h",
    "Uhr",
    "GMT",
    "UTC",
    "de",
    "of",
    "st",
    "th",
    "le",
    "час",
    "назад",
    "\u{202f}",
    "\u{3000}",
    "오후",
    "전",
    "시간",
    "\u{301}",
    "İ",
    "ß",
];

/// A random text of pieces and random characters.
fn random_text(stream: &mut Stream) -> String {
    let length = stream.below(40);
    let mut text = String::new();
    for _ in 0..length {
        if stream.below(5) == 0 {
            let code = (stream.next() % 0x11_0000) as u32;
            text.push(char::from_u32(code).unwrap_or('\u{fffd}'));
        } else {
            text.push_str(PIECES[stream.below(PIECES.len())]);
        }
    }
    text
}

/// Checks what every result must satisfy, whatever the text.
fn check_invariants(text: &str, context: &DateContext) {
    let found = find_times(text, context);
    let mut previous_end = 0;
    for item in &found {
        assert!(item.start < item.end, "{text:?}: empty match");
        assert!(item.start >= previous_end, "{text:?}: overlapping matches");
        assert!(text.is_char_boundary(item.start) && text.is_char_boundary(item.end));
        assert!(!item.time.to_iso8601().is_empty());
        let _ = item.time.instant(0);
        previous_end = item.end;
    }
    if let Some(whole) = parse_time_with_alternative(text, context) {
        let _ = whole.time.to_iso8601();
        let _ = whole.time.instant(i32::MIN);
    }
    let _ = parse_time(text, context);
}

#[test]
fn find_times_never_panics_on_random_text() {
    let contexts = [
        context(),
        context_at("1970-01-01T00:00:00Z", Some(i32::MIN)),
        context_at("2199-12-31T23:59:59Z", Some(50_400)),
        context_at("1900-01-01T00:00:00Z", Some(-50_400)),
    ];
    let mut stream = Stream(0x0074_7261_776c);
    for round in 0..20_000 {
        let text = random_text(&mut stream);
        check_invariants(&text, &contexts[round % contexts.len()]);
    }
}

#[test]
fn find_times_never_panics_on_random_bytes() {
    let mut stream = Stream(42);
    for _ in 0..5_000 {
        let length = stream.below(64);
        let bytes: Vec<u8> = (0..length).map(|_| (stream.next() & 0xff) as u8).collect();
        let text = String::from_utf8_lossy(&bytes);
        check_invariants(&text, &context());
    }
}

#[test]
fn extreme_inputs_do_not_panic_or_overflow() {
    let long_number = "9".repeat(500);
    let texts = [
        format!("{long_number} hours ago"),
        format!("{long_number}.{long_number}.{long_number}"),
        "4294967295 years ago".to_string(),
        "100000 years ago".to_string(),
        "99999 days ago".to_string(),
        "vor 4294967296 Stunden".to_string(),
        format!("Today{}10:11", " ".repeat(10_000)),
        "2019-09-29T10:46:47+99:99".to_string(),
        "2019-09-29T10:46:47+18:00".to_string(),
        "2199-12-31T23:59:59-18:00".to_string(),
        "1900-01-01T00:00:00+18:00".to_string(),
        "Feb 29 1900".to_string(),
    ];
    for text in &texts {
        check_invariants(text, &context());
    }
}

/// About 60 KB of page text of the given kind. "thread" is a realistic English thread page:
/// posts of a few hundred words, each under a header with its date and a signature with a join
/// date, about fifty dates in all. The "dense" kinds put a date every hundred bytes or so among
/// versions, prices and addresses, as a stress test; "prose" has no date at all.
fn page(kind: &str) -> String {
    let block = match kind {
        "thread" => return thread_page(),
        "dense english" => {
            "Re: Kernel 5.1.0 panics at boot on my laptop, any ideas what to try next? \
             by alice » Mon Mar 30, 2009 10:11 pm Posts: 1,299 Joined: Sun Jan 04, 2009 3:05 am \
             I tried the live image from 2019 and the 10.0.0.1 router still drops packets after \
             about 3 hours of uptime; the score was 2:1 for the old kernel. Last edited by bob on \
             Today, 10:32 PM, edited 2 times in total. Quote from carol 3 hours ago: that is a \
             known problem with the firmware, see the thread from March 2025 for the details.\n"
        }
        "dense german" => {
            "Antwort #3 am: 30. März 2025, 22:11:05 » Zitat von bob: Ich habe die Version \
             2.0.19 installiert und seitdem läuft der Server ohne Probleme, aber die Lüfter sind \
             sehr laut geworden. Heute um 08:00:00 habe ich nachgesehen: 45 Grad im Gehäuse, \
             das ist zu viel für den Sommer. Letzter Besuch: Gestern um 23:59:59, Beiträge: 1.234 \
             Mitglied seit 01.02.2019, Wohnort: Berlin. Hier klicken für mehr Informationen.\n"
        }
        "dense chinese" => {
            "发表于 2025-3-30 22:11 | 只看该作者 回复 3\u{a0}天前 积分 1234 楼主 刚刚 \
             我的电脑升级到最新版本以后经常死机，请问大家有没有遇到过同样的问题？\
             已经试过重装系统和更新驱动，但是问题依然存在，每隔大约三个小时就会出现一次。\
             最后回复 昨天\u{a0}22:32 查看 5678 回复 12 本版积分规则 2009年3月30日 发表\n"
        }
        _ => PROSE,
    };
    let mut text = String::with_capacity(61_440);
    while text.len() < 60_000 {
        text.push_str(block);
    }
    text
}

/// A paragraph of English prose with numbers but no dates.
const PROSE: &str = "The quick brown fox jumps over the lazy dog while the committee discusses \
    the budget for the next fiscal period and everyone waits patiently for a decision about the \
    new building, the parking spaces and the coffee machine in the main hall. Nobody expects the \
    meeting to end early, and the minutes will be long again; version 2.4.1 of the agenda costs \
    $1,299.00 to print, and the projector at 192.168.1.20 still needs 3 cables.\n";

/// The kinds of page the speed tests scan.
const KINDS: [&str; 5] = [
    "thread",
    "prose",
    "dense english",
    "dense german",
    "dense chinese",
];

/// A thread page of twenty-five posts in phpBB's style.
fn thread_page() -> String {
    let mut text = String::with_capacity(61_440);
    let mut post = 0;
    while text.len() < 60_000 {
        post += 1;
        text.push_str(&format!(
            "Re: Fan noise after the BIOS update #{post}\nby member{post} » Mon Mar {}, 2025 \
             {}:{:02} pm\n",
            post % 28 + 1,
            post % 12 + 1,
            post * 7 % 60
        ));
        for _ in 0..6 {
            text.push_str(PROSE);
        }
        text.push_str(&format!(
            "member{post}\nPosts: {}\nJoined: Jan 2024\nLast edited on Today, 10:32 PM\n\n",
            post * 37
        ));
    }
    text
}

#[test]
fn page_sized_and_adversarial_texts_are_read_whole() {
    // Speed is measured by `trawl bench page`, not here; this checks that page-sized texts and
    // long repetitions of partial expressions are read to the end with valid offsets.
    let context = context();
    for kind in KINDS {
        let text = page(kind);
        for found in find_times(&text, &context) {
            assert!(text.is_char_boundary(found.start) && text.is_char_boundary(found.end));
        }
    }
    for adversarial in [
        "1.1.", "a ", "Mar ", "Today ", "9", " ", "前", "il y ", "3 ",
    ] {
        let text = adversarial.repeat(60_000 / adversarial.len());
        for found in find_times(&text, &context) {
            assert!(
                found.start < found.end && found.end <= text.len(),
                "{adversarial:?}"
            );
        }
    }
}
