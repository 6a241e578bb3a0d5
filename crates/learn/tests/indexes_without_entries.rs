//! A mailing-list archive whose indexes show no date and no count: each row is a message's
//! subject linking its page and the sender's name, replies nested under the message they
//! answer, as MHonArc prints its thread index. The entry reader finds no thread entry there, so
//! no vertex was a thread list, the plan kept the portal alone and the crawl of a real archive
//! stopped after two fetches. The fixture is written by hand.

use trawl_learn::learn;
use trawl_learn::sitemap::Role;
use trawl_learn::summary::PageSummary;
use trawl_learn::traverse::{Strategy, VertexVerdict};
use url::Url;

mod common;
use common::{ORIGIN, post_text, summarise};

const LISTS: [&str; 3] = ["general", "support", "hardware"];
const THREADS_PER_LIST: usize = 8;
const MESSAGES_PER_THREAD: usize = 3;

fn sender(thread: usize, message: usize) -> String {
    let names = ["Ann Keller", "bob.t", "Carla Diaz", "dmitri", "Evan Moss"];
    names[(thread + message) % names.len()].to_string()
}

/// The archive-wide number of a message.
fn number(list: usize, thread: usize, message: usize) -> usize {
    (list * THREADS_PER_LIST + thread) * MESSAGES_PER_THREAD + message
}

fn subject(list: usize, thread: usize, message: usize) -> String {
    let topics = [
        "Build fails on the new compiler",
        "Release notes for the spring version",
        "Mirror down since Tuesday",
        "Patch for the config parser",
        "Question about the licence",
        "Slow start on older laptops",
        "Translation of the manual",
        "Meeting notes from the sprint",
    ];
    let topic = format!(
        "{} ({list})",
        topics[thread % topics.len()],
        list = LISTS[list]
    );
    match message {
        0 => topic,
        _ => format!("Re: {topic}"),
    }
}

fn page(title: &str, body: &str) -> String {
    format!("<!DOCTYPE html><html><head><title>{title}</title></head><body>{body}</body></html>")
}

fn portal() -> String {
    let rows: String = LISTS
        .iter()
        .map(|list| {
            format!("<tr><td><a href=\"/archives/{list}/threads.html\">{list}</a></td></tr>")
        })
        .collect();
    page(
        "Archives",
        &format!("<h1>Archives</h1><table>{rows}</table>"),
    )
}

fn index(list: usize) -> String {
    let mut rows = String::new();
    for thread in 0..THREADS_PER_LIST {
        let link = |message: usize| {
            format!(
                "<strong><a href=\"msg{:05}.html\">{}</a></strong>, <em>{}</em>",
                number(list, thread, message),
                subject(list, thread, message),
                sender(thread, message)
            )
        };
        rows.push_str(&format!("<li>{}<ul>", link(0)));
        for message in 1..MESSAGES_PER_THREAD {
            rows.push_str(&format!("<li>{}</li>", link(message)));
        }
        rows.push_str("</ul></li>");
    }
    page(
        &format!("{} (by thread)", LISTS[list]),
        &format!("<h1>{} (by thread)</h1><hr><ul>{rows}</ul>", LISTS[list]),
    )
}

fn message(list: usize, thread: usize, message: usize) -> String {
    let here = number(list, thread, message);
    let neighbour = |number: usize| format!("[<a href=\"msg{number:05}.html\">Thread Next</a>]");
    let next = if message + 1 < MESSAGES_PER_THREAD {
        neighbour(here + 1)
    } else {
        String::new()
    };
    page(
        &subject(list, thread, message),
        &format!(
            "<hr>{next}[<a href=\"threads.html\">Thread Index</a>]<h1>{subject}</h1><hr>\
             <ul><li><em>From</em>: {name} &lt;{address}@example.org&gt;</li>\
             <li><em>Date</em>: Thu, {day:02} Jan 2025 {hour:02}:15:00 +0000</li>\
             <li><em>Subject</em>: {subject}</li></ul><hr><pre>{text}</pre><hr>\
             <ul><li>Prev by Date: <strong><a href=\"msg{previous:05}.html\">earlier</a></strong></li>\
             <li>Next by Date: <strong><a href=\"msg{following:05}.html\">later</a></strong></li>\
             <li>Index(es): <ul><li><a href=\"threads.html\"><strong>Thread</strong></a></li></ul></li></ul>",
            subject = subject(list, thread, message),
            name = sender(thread, message),
            address = sender(thread, message).to_lowercase().replace(' ', "."),
            day = 1 + thread,
            hour = 8 + message,
            text = post_text(list * 100 + thread, message, 40),
            previous = here.saturating_sub(1),
            following = here + 1,
        ),
    )
}

fn sample() -> Vec<PageSummary> {
    let fetched_at = "2025-01-20T12:00:00Z";
    let mut pages = vec![summarise("/archives/", 0, &portal(), fetched_at)];
    for (list, name) in LISTS.iter().enumerate() {
        let index_path = format!("/archives/{name}/threads.html");
        pages.push(summarise(&index_path, 1, &index(list), fetched_at));
        for thread in 0..THREADS_PER_LIST {
            for reply in 0..MESSAGES_PER_THREAD {
                let path = format!(
                    "/archives/{name}/msg{:05}.html",
                    number(list, thread, reply)
                );
                pages.push(summarise(
                    &path,
                    2,
                    &message(list, thread, reply),
                    fetched_at,
                ));
            }
        }
    }
    pages
}

#[test]
fn indexes_of_messages_without_dates_are_thread_lists_and_are_crawled() {
    let portal = Url::parse(&format!("{ORIGIN}/archives/")).expect("a URL");
    let learned = learn(&portal, sample(), Strategy::Skeleton);
    let sitemap = &learned.sitemap;
    let vertex_of = |path: &str| {
        let url = Url::parse(&format!("{ORIGIN}{path}")).expect("a URL");
        let page = sitemap
            .pages
            .iter()
            .position(|page| page.url == url)
            .expect("sampled");
        sitemap.vertex_of_page[page]
    };
    let index = vertex_of("/archives/support/threads.html");
    let messages = vertex_of("/archives/support/msg00030.html");
    assert_eq!(sitemap.vertices[messages].role, Role::Thread);
    assert_eq!(sitemap.vertices[index].role, Role::ThreadList);
    for vertex in [index, messages] {
        assert_eq!(
            learned.traversal.verdicts[vertex],
            VertexVerdict::Kept,
            "vertex {vertex} ({:?})",
            sitemap.vertices[vertex].role
        );
    }
}
