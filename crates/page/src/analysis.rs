//! One call that runs the whole analysis of a page.

use url::Url;

use crate::charset::{DecodedPage, decode_html};
use crate::dom::{Document, NodeKind, ROOT};
use crate::links::{Link, link_table_in_slots};
use crate::records::{
    PageFacts, Post, ThreadEntry, entries_lead_to_other_threads, lone_post_element,
    mail_message_post, posts_from, posts_in_region, thread_entries_from,
};
use crate::regions::{
    RecordSlot, Region, SingleRecord, find_regions, record_slots, single_record_of,
};
use crate::time::{DateContext, site_utc_offset};

/// Everything trawl knows about one page.
#[derive(Debug, Clone)]
pub struct PageAnalysis {
    /// The page URL links were resolved against.
    pub url: Url,
    /// How the bytes were decoded.
    pub charset: &'static str,
    /// The tree.
    pub document: Document,
    /// Repetitive regions, outer first.
    pub regions: Vec<Region>,
    /// For every node, the record holding it.
    pub slots: Vec<Option<RecordSlot>>,
    /// Every followable link with its location.
    pub links: Vec<Link>,
    /// Posts, when the page is a thread page.
    pub posts: Vec<Post>,
    /// Thread entries, when the page is a board page.
    pub thread_entries: Vec<ThreadEntry>,
    /// The context the page's dates were read in: the caller's, with the forum's offset from
    /// UTC filled in from the page ([`site_utc_offset`]) when the caller did not know it.
    pub date_context: DateContext,
}

/// Analyses the bytes of a page served for `url` with the given `Content-Type`, fetched at
/// `context.fetched_at`. Never fails: malformed markup and unknown charsets still give a tree.
pub fn analyse(
    bytes: &[u8],
    content_type: Option<&str>,
    url: &Url,
    context: &DateContext,
) -> PageAnalysis {
    analyse_structure(bytes, content_type, url, context).read_records(RecordsWanted::Both)
}

/// The first half of [`analyse`]: the tree, its regions and its links, before any record is
/// read, for a caller that learns from them what the page is (see [`RecordsWanted`]).
pub fn analyse_structure(
    bytes: &[u8],
    content_type: Option<&str>,
    url: &Url,
    context: &DateContext,
) -> PageStructure {
    let DecodedPage { text, encoding, .. } = decode_page_of(bytes, content_type, url);
    analyse_text_structure(&text, encoding.name(), url, context)
}

/// The text of a page served for `url` with the given `Content-Type`, decoded as [`analyse`]
/// decodes it: the address's top-level domain is the last hint when nothing else names the
/// charset (`.cn` pages are most often GBK).
pub fn decode_page_of(bytes: &[u8], content_type: Option<&str>, url: &Url) -> DecodedPage {
    let top_level_domain = url.host_str().and_then(|host| host.rsplit('.').next());
    decode_html(bytes, content_type, top_level_domain)
}

/// The posts of a page whose post region did not repeat (a thread of one post), read from
/// `record`, a lone record whose pattern the caller knows to hold posts on other pages of the
/// site. With one record there is no column statistics to lean on; the readers fall back on
/// what one record shows (the latest date is the post's, not the author's join date). When
/// `context` has no offset from UTC, the one the page stated (see [`PageAnalysis::date_context`])
/// is used, as [`analyse`] does.
pub fn lone_record_posts(
    analysis: &PageAnalysis,
    record: &SingleRecord,
    context: &DateContext,
) -> Vec<Post> {
    let context = &with_site_offset(context, analysis.date_context.utc_offset_seconds);
    posts_of_added_record(
        &analysis.document,
        &analysis.regions,
        &analysis.links,
        region_of_single_record(record),
        &analysis.url,
        context,
        false,
    )
}

/// The posts of the page's region `region`, read as a post region whatever page analysis made of
/// it: a region whose pattern the caller knows to hold posts on other pages of the site. Page
/// analysis alone reads a list of undated records as posts only when their messages are
/// sentences (see `undated_posts`), as a board index's one-line descriptions are made like
/// short replies; a page whose few replies are all short is then read for its opening post
/// alone, though the crawler saw the same records hold the replies of the thread's other
/// pages. When `context` has no offset from UTC, the one the page stated is used, as in
/// [`lone_record_posts`].
pub fn known_region_posts(
    analysis: &PageAnalysis,
    region: usize,
    context: &DateContext,
) -> Vec<Post> {
    if region >= analysis.regions.len() {
        return Vec::new();
    }
    let context = &with_site_offset(context, analysis.date_context.utc_offset_seconds);
    let facts = PageFacts::new(
        &analysis.document,
        &analysis.regions,
        &analysis.slots,
        &analysis.links,
        context,
    );
    posts_in_region(&facts, region, &analysis.url)
}

/// The region a lone record would form if it were a run of one.
fn region_of_single_record(record: &SingleRecord) -> Region {
    Region {
        parent: record.parent,
        width: record.width,
        records: vec![record.first],
        pattern: record.pattern,
        text_share: record.text_share,
        node_share: record.node_share,
    }
}

/// The posts of `record`, a region of one record added to the page's `regions` for the time of
/// reading: the column readers then treat the lone record as they treat a post region. `lean`
/// leaves out what only an archive keeps (see [`crate::lean`]).
fn posts_of_added_record(
    document: &Document,
    regions: &[Region],
    links: &[Link],
    record: Region,
    url: &Url,
    context: &DateContext,
    lean: bool,
) -> Vec<Post> {
    let mut regions = regions.to_vec();
    regions.push(record);
    let slots = record_slots(document, &regions);
    let facts = facts_of(document, &regions, &slots, links, context, lean);
    posts_in_region(&facts, regions.len() - 1, url)
}

/// The facts of a page, for a lean reading (see [`crate::lean`]) or a full one.
fn facts_of<'a>(
    document: &'a Document,
    regions: &'a [Region],
    slots: &'a [Option<RecordSlot>],
    links: &'a [Link],
    context: &DateContext,
    lean: bool,
) -> PageFacts<'a> {
    let facts = PageFacts::new(document, regions, slots, links, context);
    if lean { facts.lean() } else { facts }
}

/// Analyses a page that is already text.
pub fn analyse_text(
    text: &str,
    charset: &'static str,
    url: &Url,
    context: &DateContext,
) -> PageAnalysis {
    analyse_text_structure(text, charset, url, context).read_records(RecordsWanted::Both)
}

/// [`analyse_structure`] of a page that is already text.
pub fn analyse_text_structure(
    text: &str,
    charset: &'static str,
    url: &Url,
    context: &DateContext,
) -> PageStructure {
    let document = Document::parse(text);
    let date_context = match context.utc_offset_seconds {
        Some(_) => *context,
        None => with_site_offset(
            context,
            site_utc_offset(&visible_text(&document), context.fetched_at),
        ),
    };
    let regions = find_regions(&document);
    let slots = record_slots(&document, &regions);
    let links = link_table_in_slots(&document, &regions, &slots, url);
    PageStructure {
        url: url.clone(),
        charset,
        document,
        regions,
        slots,
        links,
        date_context,
    }
}

/// A page parsed, its regions found and its links placed, its records not read yet: what a
/// crawler needs to classify the page, after which it knows which records to read.
#[derive(Debug, Clone)]
pub struct PageStructure {
    /// The page URL links were resolved against.
    pub url: Url,
    /// How the bytes were decoded.
    pub charset: &'static str,
    /// The tree.
    pub document: Document,
    /// Repetitive regions, outer first.
    pub regions: Vec<Region>,
    /// For every node, the record holding it.
    pub slots: Vec<Option<RecordSlot>>,
    /// Every followable link with its location.
    pub links: Vec<Link>,
    /// The context the page's dates are read in (see [`PageAnalysis::date_context`]).
    pub date_context: DateContext,
}

/// Which records to read from a page, for a caller that knows what the page is.
///
/// Reading posts and reading thread entries each walk every region of the page; a crawler that
/// has classified a page as a thread page needs no thread entries from it, and a list page's
/// posts are not kept either. The other kind is still read when the first finds nothing, so a
/// page the classification got wrong loses nothing: `PostsFirst` and `ThreadEntriesFirst` give
/// the same records as `Both` except that a thread page with posts has no thread entries and a
/// list page with thread entries has no posts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum RecordsWanted {
    /// Posts and thread entries both: a page whose kind is not known.
    #[default]
    Both,
    /// A thread page: posts, and thread entries only when there is no post.
    PostsFirst,
    /// A list page: thread entries, and posts only when no thread is listed.
    ThreadEntriesFirst,
}

impl PageStructure {
    /// Reads the page's records, the second half of [`analyse`].
    pub fn read_records(self, wanted: RecordsWanted) -> PageAnalysis {
        self.read_records_of(wanted, false)
    }

    /// [`PageStructure::read_records`], leaving out what only an archive keeps when `lean` (see
    /// [`crate::lean`]).
    pub(crate) fn read_records_of(self, wanted: RecordsWanted, lean: bool) -> PageAnalysis {
        let PageStructure {
            url,
            charset,
            document,
            regions,
            slots,
            links,
            date_context,
        } = self;
        let context = &date_context;
        let facts = facts_of(&document, &regions, &slots, &links, context, lean);
        let (mut posts, thread_entries) = read_in_order(
            wanted,
            || posts_from(&facts, &url),
            || thread_entries_from(&facts),
        );
        // A mailing-list archive's message page shows one mail under its header fields; when
        // the page gave no posts, such a header makes the page one post.
        let mail = looks_for_a_mail_message(wanted, posts.len(), thread_entries.len())
            .then(|| mail_message_post(&facts))
            .flatten();
        // A thread of one post repeats nothing; when the page gave neither posts nor thread
        // entries, a lone element made like a post is read as the page's one post. Entries that
        // all lead to other threads made like this page are suggestions under a thread, which
        // a thread of one post shows as well.
        // A reader that wants a list page's entries first asked for no post once it had them.
        // The entries' URLs are parsed only for a page that gave no post.
        let only_suggestions = || {
            !matches!(wanted, RecordsWanted::ThreadEntriesFirst)
                && entries_lead_to_other_threads(&url, &thread_entries)
        };
        let lone = (mail.is_none()
            && posts.is_empty()
            && (thread_entries.is_empty() || only_suggestions()))
        .then(|| lone_post_element(&facts))
        .flatten();
        posts.extend(mail);
        drop(facts);
        if let Some(record) = lone.and_then(|element| single_record_of(&document, element)) {
            posts = posts_of_added_record(
                &document,
                &regions,
                &links,
                region_of_single_record(&record),
                &url,
                context,
                lean,
            );
        }
        PageAnalysis {
            url,
            charset,
            document,
            regions,
            slots,
            links,
            posts,
            thread_entries,
            date_context,
        }
    }
}

/// Reads posts and thread entries in the order `wanted` gives, the second kind only when the
/// first found nothing (see [`RecordsWanted`]).
fn read_in_order<P, E>(
    wanted: RecordsWanted,
    read_posts: impl FnOnce() -> Vec<P>,
    read_entries: impl FnOnce() -> Vec<E>,
) -> (Vec<P>, Vec<E>) {
    match wanted {
        RecordsWanted::Both => (read_posts(), read_entries()),
        RecordsWanted::PostsFirst => {
            let posts = read_posts();
            let entries = if posts.is_empty() {
                read_entries()
            } else {
                Vec::new()
            };
            (posts, entries)
        }
        RecordsWanted::ThreadEntriesFirst => {
            let entries = read_entries();
            let posts = if entries.is_empty() {
                read_posts()
            } else {
                Vec::new()
            };
            (posts, entries)
        }
    }
}

/// Whether a page that gave `posts` posts and `thread_entries` thread entries is read for a mail
/// message's header. Only a page without posts is; and a list page whose thread entries its
/// reader asked for first is not, as [`RecordsWanted::ThreadEntriesFirst`] promises no posts
/// once entries were found. The header search reads the text of every small element of the
/// page, and on the board pages of a freshness replay it cost a quarter of all the time for a
/// post that was then thrown away.
fn looks_for_a_mail_message(wanted: RecordsWanted, posts: usize, thread_entries: usize) -> bool {
    posts == 0 && !(wanted == RecordsWanted::ThreadEntriesFirst && thread_entries > 0)
}

/// `context` with `site_offset` as the forum's offset when it had none: a caller that knows the
/// offset (from configuration, or from the forum's other pages) is trusted over the page.
fn with_site_offset(context: &DateContext, site_offset: Option<i32>) -> DateContext {
    DateContext {
        utc_offset_seconds: context.utc_offset_seconds.or(site_offset),
        ..*context
    }
}

/// The text a reader sees, scripts and styles left out, with a space between text nodes so that
/// the words of neighbouring elements stay apart.
fn visible_text(document: &Document) -> String {
    let mut text = String::new();
    let mut walk = document.descendants(ROOT);
    while let Some(node) = walk.next() {
        let data = document.node(node);
        match data.kind {
            NodeKind::Element if data.is("script") || data.is("style") => walk.skip_children(),
            NodeKind::Text => {
                if !text.is_empty() {
                    text.push(' ');
                }
                text.push_str(document.text_of(node));
            }
            _ => {}
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::{RecordsWanted, looks_for_a_mail_message, read_in_order};

    /// Reads with `wanted` from a page that holds `posts` posts and `entries` thread entries;
    /// returns what was kept and which readers ran.
    fn read(wanted: RecordsWanted, posts: usize, entries: usize) -> (usize, usize, bool, bool) {
        let (mut posts_read, mut entries_read) = (false, false);
        let (kept_posts, kept_entries) = read_in_order(
            wanted,
            || {
                posts_read = true;
                vec![(); posts]
            },
            || {
                entries_read = true;
                vec![(); entries]
            },
        );
        (
            kept_posts.len(),
            kept_entries.len(),
            posts_read,
            entries_read,
        )
    }

    fn check(wanted: RecordsWanted, page: (usize, usize), expected: (usize, usize, bool, bool)) {
        assert_eq!(
            read(wanted, page.0, page.1),
            expected,
            "{wanted:?} on {page:?}"
        );
    }

    #[test]
    fn the_second_kind_is_read_only_when_the_first_found_nothing() {
        check(RecordsWanted::Both, (3, 2), (3, 2, true, true));
        check(RecordsWanted::Both, (0, 0), (0, 0, true, true));
        check(RecordsWanted::PostsFirst, (3, 2), (3, 0, true, false));
        check(RecordsWanted::PostsFirst, (0, 2), (0, 2, true, true));
        check(RecordsWanted::PostsFirst, (0, 0), (0, 0, true, true));
        check(
            RecordsWanted::ThreadEntriesFirst,
            (3, 2),
            (0, 2, false, true),
        );
        check(
            RecordsWanted::ThreadEntriesFirst,
            (3, 0),
            (3, 0, true, true),
        );
        check(
            RecordsWanted::ThreadEntriesFirst,
            (0, 0),
            (0, 0, true, true),
        );
    }

    fn check_mail(wanted: RecordsWanted, posts: usize, entries: usize, expected: bool) {
        assert_eq!(
            looks_for_a_mail_message(wanted, posts, entries),
            expected,
            "{wanted:?} with {posts} posts and {entries} thread entries"
        );
    }

    #[test]
    fn a_mail_message_is_looked_for_only_where_a_post_is_still_wanted() {
        check_mail(RecordsWanted::Both, 0, 0, true);
        check_mail(RecordsWanted::Both, 0, 4, true);
        check_mail(RecordsWanted::Both, 2, 0, false);
        check_mail(RecordsWanted::PostsFirst, 0, 0, true);
        check_mail(RecordsWanted::PostsFirst, 0, 4, true);
        check_mail(RecordsWanted::PostsFirst, 2, 0, false);
        check_mail(RecordsWanted::ThreadEntriesFirst, 0, 0, true);
        check_mail(RecordsWanted::ThreadEntriesFirst, 0, 4, false);
        check_mail(RecordsWanted::ThreadEntriesFirst, 2, 0, false);
    }
}
