//! Question pages of question-and-answer sites, handwritten: the question stands apart above a
//! list of answers, and every post (question or answer) carries a vote count and, under its
//! text and signature, a list of one-line comments, each with its own author link and date.
//! Comments are not posts: the site's own post counts leave them out, and the ground truth of
//! the simulator's `qa` family does too. So a question page's posts are the question and its
//! answers, each with its own author, time and text; a comment's date is not its post's time,
//! and a post with more comments than the page has answers does not make the comments the
//! post list.

use jiff::Timestamp;
use trawl_page::analysis::analyse_text;
use trawl_page::time::DateContext;
use url::Url;

/// A post of a fixture: author, minute of 12 May 2024 it was written (`HH:MM`), text, and its
/// comments as (author, minute, text).
struct Shown {
    author: &'static str,
    at: &'static str,
    text: &'static str,
    comments: &'static [(&'static str, &'static str, &'static str)],
}

/// One post block: vote cell, text, "asked/answered" line with the user card, then comments.
fn block(kind: &str, id: usize, post: &Shown) -> String {
    let comments: String = post
        .comments
        .iter()
        .map(|(author, at, text)| {
            format!(
                "<li class=\"comment\"><span class=\"comment-copy\">{text}</span> – \
                 <a class=\"comment-user\" href=\"/users/{}/{author}\">{author}</a> \
                 <span class=\"comment-date\" title=\"2024-05-12 {at}:00Z\">May 12 at {at}</span></li>",
                author.len()
            )
        })
        .collect();
    let verb = if kind == "question" {
        "asked"
    } else {
        "answered"
    };
    format!(
        "<div class=\"{kind}\" id=\"{kind}-{id}\"><div class=\"votecell\"><span class=\"votes\">{}\
         </span></div><div class=\"postcell\"><div class=\"post-text\"><p>{}</p></div>\
         <div class=\"post-menu\"><a href=\"/posts/{id}/\">share</a></div>\
         <div class=\"signature\"><span class=\"action\">{verb} \
         <span class=\"when\" title=\"2024-05-12 {}:00Z\">May 12, 2024 at {}</span></span>\
         <a href=\"/users/{}/{}\">{}</a> <span class=\"rep\">{}</span></div>\
         <ul class=\"comment-list\">{comments}</ul></div></div>",
        id % 7,
        post.text,
        post.at,
        post.at,
        post.author.len(),
        post.author,
        post.author,
        100 + id * 13
    )
}

/// A question page: the question apart, then the answers under a heading.
fn page(question: &Shown, answers: &[Shown]) -> String {
    let answers_html: String = answers
        .iter()
        .enumerate()
        .map(|(index, answer)| block("answer", 20 + index, answer))
        .collect();
    format!(
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>Backup stops half way - Q&amp;A</title></head><body>\
         <header><a href=\"/\">Q&amp;A</a> <a href=\"/questions/\">Questions</a> \
         <a href=\"/tags/\">Tags</a> <a href=\"/users/\">Users</a></header>\
         <h1><a href=\"/questions/7/backup-stops\">Backup stops half way</a></h1>{}\
         <div id=\"answers\"><h2>{} Answers</h2><div class=\"sort\">Sorted by: \
         <a href=\"?sort=votes\">votes</a> <a href=\"?sort=oldest\">oldest</a></div>{answers_html}\
         </div><footer><a href=\"/about\">About</a></footer></body></html>",
        block("question", 7, question),
        answers.len()
    )
}

/// The posts of `html` as (author, `HH:MM` of the time, start of the text), in page order.
fn posts(html: &str) -> Vec<(String, String, String)> {
    let url = Url::parse("https://answers.example/questions/7/backup-stops").expect("a URL");
    let fetched_at: Timestamp = "2024-06-01T12:00:00Z".parse().expect("an instant");
    let analysis = analyse_text(html, "UTF-8", &url, &DateContext::new(fetched_at, Some(0)));
    analysis
        .posts
        .iter()
        .map(|post| {
            let minute = post.time.as_ref().map_or_else(String::new, |time| {
                format!("{:02}:{:02}", time.local.hour(), time.local.minute())
            });
            let start: String = post.text.chars().take(24).collect();
            (post.author.clone().unwrap_or_default(), minute, start)
        })
        .collect()
}

#[track_caller]
fn check(question: &Shown, answers: &[Shown]) {
    check_page(question, answers, |html| html);
}

/// As [`check`], on the page as `change` rewrites it.
#[track_caller]
fn check_page(question: &Shown, answers: &[Shown], change: impl Fn(String) -> String) {
    let expected: Vec<(String, String, String)> = std::iter::once(question)
        .chain(answers)
        .map(|post| {
            let start: String = post.text.chars().take(24).collect();
            (post.author.to_string(), post.at.to_string(), start)
        })
        .collect();
    let html = change(page(question, answers));
    assert_eq!(posts(&html), expected, "posts of:\n{html}");
}

const QUESTION: Shown = Shown {
    author: "harriet",
    at: "08:05",
    text: "Since the last update the backup job stops half way and the log shows nothing at all.",
    comments: &[
        (
            "olaf",
            "08:40",
            "Which version of the backup tool do you run?",
        ),
        (
            "harriet",
            "09:02",
            "The one from the April release, installed fresh.",
        ),
    ],
};

/// Answers with comments under them, the question with two.
const ANSWERS: [Shown; 3] = [
    Shown {
        author: "olaf",
        at: "09:15",
        text: "Check whether the target disk is full, mine stopped the same way when it was full.",
        comments: &[("harriet", "09:50", "It has plenty of room left, sadly.")],
    },
    Shown {
        author: "mireille",
        at: "10:20",
        text: "Large files over four gigabytes fail on FAT drives, format it with another system.",
        comments: &[
            (
                "harriet",
                "11:45",
                "That was it, the drive was FAT32. Thank you!",
            ),
            (
                "olaf",
                "12:10",
                "Good catch, I had forgotten about that limit.",
            ),
        ],
    },
    Shown {
        author: "tomasz",
        at: "13:30",
        text: "You can also split the archive into parts below the limit in the job settings.",
        comments: &[],
    },
];

#[test]
fn a_comment_date_is_not_its_posts_time() {
    check(&QUESTION, &ANSWERS);
}

/// The simulator's question-and-answer family: every post's time is the one its "asked" or
/// "answered" line shows, never one of its comments' (on seed 41, an answer with comments was
/// read with the time of a comment under it).
#[test]
fn simulated_question_pages_read_each_posts_own_time() {
    use trawl_sim::{Address, FamilyName, Route, Scale, Site, SiteConfig};
    let site = Site::build(SiteConfig::new(FamilyName::Qa, 41, Scale::Small));
    let at = site.history().end;
    let fetched_at = Timestamp::from_second(at).expect("an instant");
    let mut truth: std::collections::HashMap<String, Vec<String>> = Default::default();
    site.for_each_post_truth(at, |post| {
        truth
            .entry(post.page.clone())
            .or_default()
            .push(post.created[..16].to_string())
    });
    let thread = 22;
    let path = site.url_of(&Address::canonical(Route::Thread { thread, page: 1 }));
    let answer = site.serve(&path, at, None);
    let html = String::from_utf8(answer.body).expect("UTF-8");
    let url = Url::parse(&format!("http://forum.sim.test{path}")).expect("a URL");
    let analysis = analyse_text(&html, "UTF-8", &url, &DateContext::new(fetched_at, Some(0)));
    let times: Vec<String> = analysis
        .posts
        .iter()
        .map(|post| {
            post.time.as_ref().map_or_else(String::new, |time| {
                format!("{}", time.local).chars().take(16).collect()
            })
        })
        .collect();
    assert_eq!(times, truth[&path], "{path}");
}

#[test]
fn comments_outnumbering_the_answers_are_not_the_posts() {
    let answers = [Shown {
        author: "olaf",
        at: "09:15",
        text: "Large files over four gigabytes fail on FAT drives, format it with another system.",
        comments: &[
            (
                "harriet",
                "09:40",
                "That was it, the drive was FAT32. Thank you!",
            ),
            (
                "mireille",
                "10:05",
                "Same here last year, it cost me a whole weekend.",
            ),
            (
                "tomasz",
                "10:30",
                "Splitting the archive works around it as well.",
            ),
        ],
    }];
    check(&QUESTION, &answers);
}
