//! Tests of the question-and-answer codec and pages.

use super::*;
use crate::families::test_support::{contains, fixture, served_canonical, summary};
use crate::{FamilyName, Site};

fn site() -> &'static Site {
    fixture(FamilyName::Qa)
}

/// `{g}` stands for board 2's tag, `{t}` for thread `{T}`'s slug (the first thread of board 2),
/// `{u}` for user 8's name in lower case.
const CASES: &[&str] = &[
    "/ => Portal",
    "/questions/ => AllThreads { page: 1 }",
    "/questions/?sort=active&page=2 => AllThreads { page: 2 }",
    "/questions/?sort=active&page=1 => AllThreads { page: 1 } explicit",
    "/questions/?sort=active => None",
    "/questions/?page=2 => None",
    "/questions/?sort=newest => AllThreads { page: 1 } sort=Created",
    "/questions/?sort=answers&page=3 => AllThreads { page: 3 } sort=Replies",
    "/questions/?sort=title => None",
    "/questions/tagged/{g}/ => Board { board: 2, page: 1 }",
    "/questions/tagged/{g}/?sort=active&page=2 => Board { board: 2, page: 2 }",
    "/questions/tagged/{g}/?sort=newest&page=2 => Board { board: 2, page: 2 } sort=Created",
    "/questions/tagged/no-such-tag/ => None",
    "/questions/tagged/{g} => None",
    "/questions/{T}/{t}/ => Thread { thread: {T}, page: 1 }",
    "/questions/{T}/ => Thread { thread: {T}, page: 1 } alias",
    "/questions/{T}/wrong-slug/ => None",
    "/questions/{T}/{t}/?sort=oldest&page=2 => Thread { thread: {T}, page: 2 }",
    "/questions/{T}/{t}/?sort=oldest&page=1 => Thread { thread: {T}, page: 1 } explicit",
    "/questions/{T}/{t}/?sort=votes => Thread { thread: {T}, page: 1 } answers=Votes",
    "/questions/{T}/{t}/?sort=votes&page=2 => Thread { thread: {T}, page: 2 } answers=Votes",
    "/questions/{T}/{t}/?sort=newest&page=2 => Thread { thread: {T}, page: 2 } answers=Newest",
    "/questions/{T}/{t}/?sort=oldest => None",
    "/questions/{T}/{t}/?page=2 => None",
    "/questions/{T}/{t}/?sort=votes&page=0 => None",
    "/questions/{T}/{t}/answer/ => Action { kind: Reply, target: {T} }",
    "/questions/{T}/{t}/print/ => Print { thread: {T} }",
    "/questions/{T}/{t}/plain/ => ArchiveThread { thread: {T} }",
    "/questions/ask/?tag={g} => Action { kind: NewThread, target: 2 }",
    "/posts/7/ => Post { post: 7 }",
    "/posts/7/comment/ => Action { kind: Quote, target: 7 }",
    "/posts/07/ => None",
    "/feeds/tag/{g}/ => ArchiveBoard { board: 2 }",
    "/users/ => MemberList { page: 1 }",
    "/users/?page=2 => MemberList { page: 2 }",
    "/users/8/{u}/ => Profile { user: 8 }",
    "/users/8/nobody/ => None",
    "/users/8/{u}/message/ => Action { kind: Message, target: 8 }",
    "/search/?q=unanswered&page=2 => Search { page: 2 }",
    "/questions/archive/2025-03/ => Calendar { year: 2025, month: 3 }",
    "/account/signin/ => Login { next: None }",
    "/viewtopic.php?t=5 => None",
];

#[test]
fn urls_decode_to_addresses() {
    let site = site();
    let history = site.history();
    let thread = history.board(2).expect("board 2").threads[0];
    let index = TagIndex::new(history);
    let fill = |text: &str| {
        text.replace("{g}", &index.tag(2))
            .replace("{t}", &thread_slug(history, thread))
            .replace("{T}", &thread.to_string())
            .replace("{u}", &text::user_name(history.seed, 8).to_lowercase())
    };
    for case in CASES {
        let (url, expected) = case.split_once(" => ").expect("url => expected");
        let url = fill(url);
        assert_eq!(summary(site.address_of(&url)), fill(expected), "{url}");
    }
}

/// The thread of the fixture with the most pages.
fn longest_thread(site: &Site) -> u32 {
    let history = site.history();
    (1..=history.thread_count())
        .max_by_key(|&thread| history.thread_posts(thread).len())
        .expect("threads")
}

/// A question page shows its question and answers with votes and comments; its later pages
/// and its other orders are linked with the order spelled out; later pages show the question
/// again; pages in another order are copies of the canonical page of the same number.
#[test]
fn question_pages_carry_orders_votes_and_comments() {
    let site = site();
    let at = site.history().end;
    let thread = longest_thread(site);
    let page = served_canonical(site, Route::Thread { thread, page: 1 });
    let slug = thread_slug(site.history(), thread);
    contains!(page;
        "<div class=\"question\" id=\"question-",
        "<div class=\"answer",
        "<span class=\"vote-count\" itemprop=\"upvoteCount\">",
        "<li class=\"comment\"><span class=\"comment-copy\">",
        &format!("/questions/{thread}/{slug}/?sort=oldest&amp;page=2"),
        &format!("/questions/{thread}/{slug}/?sort=votes\""),
    );
    let question = site.history().thread_posts(thread)[0];
    let second = served_canonical(site, Route::Thread { thread, page: 2 });
    contains!(second; &format!("id=\"question-{question}\""));
    let votes = format!("/questions/{thread}/{slug}/?sort=votes&page=2");
    let truth = site.classify(&votes, at);
    assert_eq!(truth.class, crate::PageClass::Duplicate);
    assert_eq!(
        truth.canonical.as_deref(),
        Some(format!("/questions/{thread}/{slug}/?sort=oldest&page=2").as_str())
    );
    let answer = site.serve(&votes, at, None);
    assert_eq!(answer.status, 200);
    let body = String::from_utf8_lossy(&answer.body);
    assert!(
        body.contains(&format!(
            "/questions/{thread}/{slug}/?sort=votes&amp;page=3"
        )) || {
            site.classify(
                &format!("/questions/{thread}/{slug}/?sort=votes&page=3"),
                at,
            )
            .class
                == crate::PageClass::Invalid
        }
    );
}

/// The forum-wide list is valuable and lists every thread once over its pages; tag lists and
/// the portal's tag cloud link the boards.
#[test]
fn all_questions_list_holds_every_thread() {
    let site = site();
    let at = site.history().end;
    let truth = site.classify("/questions/", at);
    assert_eq!(truth.class, crate::PageClass::Valuable);
    assert_eq!(truth.list.as_deref(), Some("threads:all"));
    let pages = site.all_threads_pages(at);
    let mut listed = 0;
    for page in 1..=pages {
        let text = served_canonical(site, Route::AllThreads { page });
        listed += text.matches("class=\"question-summary\"").count();
    }
    assert_eq!(listed as u32, site.history().threads_up_to(at));
    let portal = served_canonical(site, Route::Portal);
    contains!(portal; "<div class=\"tag-cloud\">", "/questions/tagged/");
}
