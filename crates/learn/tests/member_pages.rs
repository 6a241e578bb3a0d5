//! Member pages that show their member's latest posts are not threads.
//!
//! The simulator's member pages show no posts, so this fixture is written by hand, shaped after
//! django-machina: thread pages whose posts carry linked author names, and member pages reached
//! through those names that list the member's recent posts (no author on them, a "Re:" title
//! linking into the thread). Both read as lists of dated paragraphs; only how the forum links
//! them tells them apart.

use std::collections::BTreeMap;

use trawl_learn::sitemap::{Role, Sitemap};
use trawl_learn::summary::PageSummary;

mod common;
use common::{post_text, summarise};

const MEMBERS: usize = 6;
const THREADS: usize = 12;
const POSTS_PER_THREAD: usize = 5;

/// A thread's title: a question, as most are.
fn title(thread: usize) -> String {
    let subjects = [
        "Which chain lasts longest on a winter commute?",
        "Tubeless tyres after two seasons of gravel riding",
        "Saddle height keeps slipping, any ideas?",
        "Best panniers for a long tour through the hills",
    ];
    format!("{} ({})", subjects[thread % subjects.len()], thread + 1)
}

fn author_of(thread: usize, post: usize) -> usize {
    (thread + post * 5) % MEMBERS
}

fn member_name(member: usize) -> String {
    [
        "Breallouck",
        "Zoomzail",
        "Cysbor",
        "Lurtaig",
        "Neastcoo",
        "Pesnoum",
    ][member]
        .to_string()
}

/// When a post was written, as the forum prints it.
fn written(thread: usize, post: usize) -> String {
    format!(
        "April {}, 2025, {}:{:02} a.m.",
        1 + (thread + post) % 20,
        1 + post,
        thread * 4 + post
    )
}

fn page(title: &str, body: &str) -> String {
    format!(
        "<html><head><title>{title}</title></head><body>\
         <nav class=\"navbar\"><a class=\"brand\" href=\"/\">Loopback Community</a>\
         <a href=\"/search/\">Advanced search</a></nav>\
         <ol class=\"breadcrumb\"><li><a href=\"/\">Forum index</a></li></ol>\
         <div class=\"container\">{body}</div>\
         <footer class=\"footer\">Powered by a forum engine</footer></body></html>"
    )
}

fn thread_page(thread: usize) -> String {
    let posts: String = (0..POSTS_PER_THREAD)
        .map(|post| {
            let member = author_of(thread, post);
            let name = member_name(member);
            format!(
                "<div id=\"{thread}{post}\" class=\"card post\"><div class=\"card-body\"><div class=\"row\">\
                 <div class=\"col-md-10 post-content-wrapper\">\
                 <h4 class=\"subject\">{} <a href=\"/thread/{thread}/?post={thread}{post}#{thread}{post}\">&#182;</a></h4>\
                 <p><small class=\"text-muted\">By: <a href=\"/member/{member}/\">{name}</a> on {}</small></p>\
                 <div class=\"post-content\"><p>{}</p></div></div>\
                 <div class=\"col-md-2 post-sidebar\">\
                 <div class=\"username\"><a href=\"/member/{member}/\"><b>{name}</b></a></div>\
                 <div class=\"posts-count\"><b>Posts:</b> {}</div></div>\
                 </div></div></div>",
                title(thread),
                written(thread, post),
                post_text(thread, post, 36),
                10 + member * 7
            )
        })
        .collect();
    page(
        &title(thread),
        &format!(
            "<h1>{}</h1><div class=\"posts\">{posts}</div>",
            title(thread)
        ),
    )
}

fn member_page(member: usize) -> String {
    let recent: String = (0..THREADS)
        .flat_map(|thread| (0..POSTS_PER_THREAD).map(move |post| (thread, post)))
        .filter(|&(thread, post)| author_of(thread, post) == member)
        .map(|(thread, post)| {
            format!(
                "<div class=\"row post\"><div class=\"post-content-wrapper\">\
                 <div class=\"post-title\"><a href=\"/thread/{thread}/?post={thread}{post}#{thread}{post}\">Re: {}</a></div>\
                 <p><small class=\"text-muted\">On {}</small></p>\
                 <div class=\"post-content\"><p>{}</p></div></div></div>",
                title(thread),
                written(thread, post),
                post_text(thread, post, 36)
            )
        })
        .collect();
    page(
        &format!("Profile of {}", member_name(member)),
        &format!(
            "<div class=\"profile-username\"><h3>{}</h3></div>\
             <div class=\"card\"><div class=\"card-header\">Statistics</div>\
             <div class=\"card-body\"><h2>{}</h2><p>Posts</p></div></div>\
             <div class=\"card recent-posts\"><div class=\"card-header\">Recent posts</div>\
             <div class=\"card-body\">{recent}</div></div>",
            member_name(member),
            10 + member * 7
        ),
    )
}

fn portal_page() -> String {
    let rows: String = (0..THREADS)
        .map(|thread| {
            let starter = author_of(thread, 0);
            format!(
                "<tr class=\"topic\"><td><a class=\"topic-name\" href=\"/thread/{thread}/\">{}</a>\
                 <div class=\"starter\">By: <a href=\"/member/{starter}/\">{}</a></div></td>\
                 <td class=\"replies\">{}</td><td class=\"views\">{}</td><td class=\"last\">{}</td></tr>",
                title(thread),
                member_name(starter),
                POSTS_PER_THREAD - 1,
                40 + thread * 3,
                written(thread, POSTS_PER_THREAD - 1)
            )
        })
        .collect();
    page("Forum", &format!("<table class=\"topics\">{rows}</table>"))
}

/// The fixture's pages, by path, each summarised as the sampler would.
fn summaries() -> Vec<PageSummary> {
    let mut pages: BTreeMap<String, (u32, String)> = BTreeMap::new();
    pages.insert("/".to_string(), (0, portal_page()));
    for thread in 0..THREADS {
        pages.insert(format!("/thread/{thread}/"), (1, thread_page(thread)));
    }
    for member in 0..MEMBERS {
        pages.insert(format!("/member/{member}/"), (2, member_page(member)));
    }
    pages
        .into_iter()
        .map(|(path, (depth, html))| summarise(&path, depth, &html, "2025-05-02T12:00:00Z"))
        .collect()
}

/// The role of the vertex holding the page at `path`.
fn role_of(sitemap: &Sitemap, path: &str) -> Role {
    let page = sitemap
        .pages
        .iter()
        .position(|page| page.url.path() == path)
        .expect("the page was summarised");
    sitemap.vertices[sitemap.vertex_of_page[page]].role
}

fn check(path: &str, expected: Role) {
    let sitemap = Sitemap::build(summaries());
    assert_eq!(role_of(&sitemap, path), expected, "role of {path}");
}

#[test]
fn the_fixture_reads_posts_on_both_kinds_of_page() {
    // Without posts read on member pages the test below would pass for the wrong reason.
    let pages = summaries();
    let member = pages
        .iter()
        .find(|page| page.url.path() == "/member/1/")
        .expect("a member page");
    assert!(member.posts_with_time >= 3, "{member:?}");
    assert!(member.distinct_post_authors <= 1);
    let thread = pages
        .iter()
        .find(|page| page.url.path() == "/thread/1/")
        .expect("a thread page");
    assert_eq!(thread.posts_with_time, POSTS_PER_THREAD);
    assert!(thread.distinct_post_authors > 1);
    assert!(
        thread
            .post_author_urls
            .iter()
            .any(|url| url.path().starts_with("/member/"))
    );
}

#[test]
fn member_pages_linked_from_author_names_are_not_threads() {
    check("/member/1/", Role::Other);
    check("/member/4/", Role::Other);
}

#[test]
fn threads_stay_threads() {
    check("/thread/1/", Role::Thread);
    check("/thread/7/", Role::Thread);
}
