//! Post lists where one record is made a little apart from the others, on thread pages of our
//! own making:
//!
//! - a phpBB 3 style page (prosilver's structure: a profile list beside a post body holding the
//!   subject, the buttons, the "by ... »" line and the content) whose theme wraps something in
//!   one post only (the first post's subject heading, a moderator's notice, an attachment box)
//!   before the content: the content stands one position further down among its siblings in
//!   that post, and its text must still be read;
//! - a Discourse style page for crawlers whose theme wraps every paragraph and every quote box:
//!   a message of one short paragraph beside a quote box (or a link preview), in either order,
//!   is the whole of both, not the paragraph alone;
//! - a vBulletin 4 style page whose list is cut into pieces by advertisements made like posts,
//!   in a theme whose classes are words of its own and whose names sit in bare `<b>`s: the
//!   posts standing alone between the pieces are read with their authors like the others.
//!
//! Each class was seen on the development pages rewritten by the perturbations of `trawl bench
//! extract` (a first post wrapped apart, a quote beside one paragraph, an announcement thread
//! cut by advertisements whose class words were replaced); these pages check the class, not
//! those forums.

mod common;

use common::{PostRead as Read, assert_posts, posts_read};

fn read(html: &str, url: &str) -> Vec<Read> {
    posts_read(html, url, "2024-06-01T12:00:00Z")
}

#[track_caller]
fn check(html: &str, url: &str, expected: &[(&str, &str, &str)]) {
    assert_posts(read(html, url), expected, html);
}

// ---------------------------------------------------------------------------------------------
// phpBB 3 style: an element one post has before its content.

const PHPBB_URL: &str = "https://garden.example/viewtopic.php?t=4410";

/// The thread: profile id, name, rank, date as phpBB prints it, its minute, and the message.
const PHPBB_THREAD: [(u32, &str, &str, &str, &str, &str); 5] = [
    (
        71,
        "hollyhock",
        "Seedling",
        "Mon May 13, 2024 8:05 am",
        "2024-05-13T08:05",
        "My tomato leaves curl upwards since the cold nights. Is that a disease or the weather?",
    ),
    (
        12,
        "old_gardener",
        "Moderator",
        "Mon May 13, 2024 9:41 am",
        "2024-05-13T09:41",
        "That is leaf roll from the cold, it does no harm. The new leaves will grow flat again.",
    ),
    (
        71,
        "hollyhock",
        "Seedling",
        "Mon May 13, 2024 6:12 pm",
        "2024-05-13T18:12",
        "Thank you, I was about to spray them with something.",
    ),
    (
        388,
        "Rosa canina",
        "Green thumb",
        "Tue May 14, 2024 7:30 am",
        "2024-05-14T07:30",
        "Mine did the same last year, they gave a good crop in the end.",
    ),
    (
        12,
        "old_gardener",
        "Moderator",
        "Tue May 14, 2024 10:02 am",
        "2024-05-14T10:02",
        "Keep them covered at night until the end of May and they will be fine.",
    ),
];

/// One post in prosilver's structure. `heading` is the subject line as the theme prints it
/// (bare, or in a wrapper); `before_content` stands between the "by" line and the content.
fn phpbb_post(index: usize, heading: &str, before_content: &str) -> String {
    let (id, name, rank, date, _, message) = PHPBB_THREAD[index];
    let post = 9000 + index;
    let joined = "Sat Mar 02, 2019 4:20 pm";
    format!(
        "<div id=\"p{post}\" class=\"post has-profile bg{bg}\"><div class=\"inner\">\
         <dl class=\"postprofile\" id=\"profile{post}\">\
         <dt class=\"has-profile-rank\"><a href=\"./memberlist.php?mode=viewprofile&amp;u={id}\" \
         class=\"username\">{name}</a></dt>\
         <dd class=\"profile-rank\">{rank}</dd>\
         <dd class=\"profile-posts\"><strong>Posts:</strong> <a href=\"./search.php?author_id={id}\">{posts}</a></dd>\
         <dd class=\"profile-joined\"><strong>Joined:</strong> {joined}</dd></dl>\
         <div class=\"postbody\"><div id=\"post_content{post}\">\
         {heading}\
         <ul class=\"post-buttons\"><li><a href=\"./posting.php?mode=quote&amp;p={post}\" \
         class=\"button\"><span>Quote</span></a></li></ul>\
         <p class=\"author\"><a href=\"./viewtopic.php?p={post}#p{post}\"><span>Post</span></a>\
         <span class=\"responsive-hide\">by <strong><a href=\"./memberlist.php?mode=viewprofile&amp;u={id}\" \
         class=\"username\">{name}</a></strong> » </span>{date} </p>\
         {before_content}\
         <div class=\"content\">{message}</div>\
         </div></div>\
         <div class=\"back2top\"><a href=\"#wrap\" class=\"top\">Top</a></div>\
         </div></div><hr class=\"divider\">",
        bg = 1 + index % 2,
        posts = 40 + 17 * index,
    )
}

/// The subject line of a reply.
fn reply_heading(index: usize) -> String {
    format!(
        "<h3><a href=\"#p{}\">Re: Tomato leaves curling</a></h3>",
        9000 + index
    )
}

/// A phpBB 3 page of the five posts, with `first_heading` as the first post's subject line and
/// `extra(index)` before each post's content.
fn phpbb_page(first_heading: &str, extra: impl Fn(usize) -> String) -> String {
    let posts: String = (0..PHPBB_THREAD.len())
        .map(|index| {
            let heading = if index == 0 {
                first_heading.to_string()
            } else {
                reply_heading(index)
            };
            phpbb_post(index, &heading, &extra(index))
        })
        .collect();
    format!(
        "<html><head><title>Tomato leaves curling - Garden Forum</title></head><body>\
         <div id=\"wrap\"><div class=\"navbar\"><a href=\"./index.php\">Board index</a> \
         <a href=\"./viewforum.php?f=3\">Vegetables</a></div>\
         <h2 class=\"topic-title\"><a href=\"./viewtopic.php?t=4410\">Tomato leaves curling</a></h2>\
         <div class=\"action-bar\"><a href=\"./posting.php?mode=reply&amp;t=4410\" class=\"button\">Post Reply</a> \
         <div class=\"pagination\">5 posts • Page <strong>1</strong> of <strong>1</strong></div></div>\
         {posts}\
         <div class=\"action-bar bottom\"><a href=\"./posting.php?mode=reply&amp;t=4410\" class=\"button\">Post Reply</a></div>\
         <p class=\"jumpbox\"><a href=\"./viewforum.php?f=3\">Return to “Vegetables”</a></p>\
         </div></body></html>"
    )
}

/// What every phpBB page must read: the profile link (the name is a link), minute and message.
fn phpbb_expected() -> Vec<(String, String, String)> {
    PHPBB_THREAD
        .iter()
        .map(|(id, _, _, _, minute, message)| {
            (
                format!("./memberlist.php?mode=viewprofile&u={id}"),
                minute.to_string(),
                message.to_string(),
            )
        })
        .collect()
}

#[track_caller]
fn check_phpbb(html: &str) {
    let read: Vec<Read> = common_read_with_links(html);
    assert_eq!(read, phpbb_expected(), "posts of:\n{html}");
}

/// The posts of `html` as (author link, or name when there is none; minute; text).
fn common_read_with_links(html: &str) -> Vec<Read> {
    use jiff::Timestamp;
    use trawl_page::analysis::analyse_text;
    use trawl_page::time::DateContext;
    let url = url::Url::parse(PHPBB_URL).expect("a valid URL");
    let fetched_at: Timestamp = "2024-06-01T12:00:00Z".parse().expect("a valid instant");
    analyse_text(html, "UTF-8", &url, &DateContext::new(fetched_at, Some(0)))
        .posts
        .iter()
        .map(|post| {
            (
                post.author_url
                    .clone()
                    .or_else(|| post.author.clone())
                    .unwrap_or_default(),
                post.time.map(|time| time.to_iso8601()).unwrap_or_default(),
                post.text.split_whitespace().collect::<Vec<_>>().join(" "),
            )
        })
        .collect()
}

#[test]
fn phpbb_posts_made_alike_read_whole() {
    check_phpbb(&phpbb_page(
        "<h3 class=\"first\"><a href=\"#p9000\">Tomato leaves curling</a></h3>",
        |_| String::new(),
    ));
}

#[test]
fn phpbb_first_post_whose_subject_alone_is_wrapped_keeps_its_text() {
    check_phpbb(&phpbb_page(
        "<div class=\"topic-first\"><h3 class=\"first\"><a href=\"#p9000\">Tomato leaves curling</a></h3></div>",
        |_| String::new(),
    ));
}

#[test]
fn phpbb_first_post_whose_subject_is_wrapped_twice_keeps_its_text() {
    check_phpbb(&phpbb_page(
        "<div class=\"wrap-a\"><div class=\"wrap-b\"><h3 class=\"first\">\
         <a href=\"#p9000\">Tomato leaves curling</a></h3></div></div>",
        |_| String::new(),
    ));
}

#[test]
fn phpbb_post_with_a_notice_before_its_content_keeps_its_text() {
    // A moderator's notice ("This post was moved") shown in the second post only.
    check_phpbb(&phpbb_page(
        "<h3 class=\"first\"><a href=\"#p9000\">Tomato leaves curling</a></h3>",
        |index| {
            if index == 1 {
                "<div class=\"notice\"><span>Topic moved from “Flowers”.</span></div>".to_string()
            } else {
                String::new()
            }
        },
    ));
}

#[test]
fn phpbb_wrapped_subject_and_wrapped_contents_keep_every_text() {
    // Every content in a wrapper of its own (the theme's), the first subject in another.
    let page = phpbb_page(
        "<div class=\"first-subject\"><h3 class=\"first\"><a href=\"#p9000\">Tomato leaves curling</a></h3></div>",
        |_| String::new(),
    )
    .replace("<div class=\"content\">", "<div class=\"box\"><div class=\"content\">")
    .replace("</div></div></div><div class=\"back2top\">", "</div></div></div></div><div class=\"back2top\">");
    check_phpbb(&page);
}

// ---------------------------------------------------------------------------------------------
// Discourse style: a short message beside a quote box, paragraphs in the theme's wrappers.

const DISCOURSE_URL: &str = "https://talk.example/t/sunscreen-under-make-up/5120";

/// One post of a Discourse page for crawlers; `body` is the message's markup.
fn discourse_post(number: usize, name: &str, instant: &str, body: &str) -> String {
    format!(
        "<div itemscope itemtype=\"http://schema.org/DiscussionForumPosting\" class=\"topic-body crawler-post\">\
         <div class=\"crawler-post-meta\"><span class=\"creator\" itemprop=\"author\">\
         <a itemprop=\"url\" href=\"https://talk.example/u/{name}\"><span itemprop=\"name\">{name}</span></a></span>\
         <span class=\"crawler-post-infos\"><time itemprop=\"datePublished\" datetime=\"{instant}\" class=\"post-time\">\
         {instant}</time><span itemprop=\"position\">#{number}</span></span></div>\
         <div class=\"post\" itemprop=\"articleBody\">{body}</div>\
         <meta itemprop=\"headline\" content=\"Sunscreen under make-up\">\
         <div itemprop=\"interactionStatistic\"><span class=\"post-likes\"></span></div></div>"
    )
}

/// A paragraph in the theme's wrapper.
fn paragraph(text: &str) -> String {
    format!("<div class=\"para\"><p>{text}</p></div>")
}

/// A quote box of `who`'s words in the theme's wrappers.
fn quote_box(who: &str, words: &str) -> String {
    format!(
        "<div class=\"quote-wrap\"><aside class=\"quote\" data-username=\"{who}\">\
         <div class=\"title-wrap\"><div class=\"title\">{who}:</div></div>\
         <div class=\"quote-body\"><blockquote><p>{words}</p></blockquote></div></aside></div>"
    )
}

/// A link preview box (title, excerpt) in the theme's wrappers.
fn link_preview(title: &str, excerpt: &str) -> String {
    format!(
        "<div class=\"quote-wrap\"><aside class=\"quote\" data-post=\"1\" data-topic=\"411\">\
         <div class=\"title-wrap\"><div class=\"title\">\
         <a href=\"https://talk.example/t/skin-care-basics/411\">{title}</a></div></div>\
         <div class=\"quote-body\"><blockquote>{excerpt}</blockquote></div></aside></div>"
    )
}

fn discourse_page(posts: &[String]) -> String {
    format!(
        "<html><head><title>Sunscreen under make-up - Beauty - Talk</title></head><body>\
         <header><a href=\"/\">Talk</a></header><div id=\"main-outlet\">\
         <h1><a href=\"/t/sunscreen-under-make-up/5120\">Sunscreen under make-up</a></h1>\
         {}</div><footer><a href=\"/privacy\">Privacy</a></footer></body></html>",
        posts.concat()
    )
}

const OPENER: &str = "Which sunscreen do you wear under make-up? Mine pills as soon as I put \
                      foundation on it, and the shiny ones make my face look wet by noon.";
const OPENER_SECOND: &str = "I have dry skin, if that matters.";
const QUOTED: &str = "Mine pills as soon as I put foundation on it";
const REPLY_PREVIEW: &str = "A thread on the basics of skin care, with sunscreens for every skin type \
                             and how long to wait before make-up.";

#[test]
fn one_paragraph_after_a_quote_box_is_read_with_the_quote() {
    let posts = [
        discourse_post(
            1,
            "lena_k",
            "2024-05-02T19:20:00Z",
            &format!("{}{}", paragraph(OPENER), paragraph(OPENER_SECOND)),
        ),
        discourse_post(
            2,
            "mirabelle",
            "2024-05-02T20:02:00Z",
            &format!(
                "{}{}",
                paragraph("Maybe the old thread helps you?"),
                link_preview("Skin care basics", REPLY_PREVIEW)
            ),
        ),
        discourse_post(
            3,
            "tessa",
            "2024-05-03T06:45:00Z",
            &format!(
                "{}{}",
                quote_box("lena_k", QUOTED),
                paragraph("Wait ten minutes before the foundation.")
            ),
        ),
    ];
    check(
        &discourse_page(&posts),
        DISCOURSE_URL,
        &[
            (
                "lena_k",
                "2024-05-02T19:20:00+00:00",
                &format!("{OPENER} {OPENER_SECOND}"),
            ),
            (
                "mirabelle",
                "2024-05-02T20:02:00+00:00",
                &format!("Maybe the old thread helps you? Skin care basics {REPLY_PREVIEW}"),
            ),
            (
                "tessa",
                "2024-05-03T06:45:00+00:00",
                &format!("lena_k: {QUOTED} Wait ten minutes before the foundation."),
            ),
        ],
    );
}

#[test]
fn one_paragraph_before_a_quote_box_is_read_with_the_quote() {
    let posts = [
        discourse_post(
            1,
            "lena_k",
            "2024-05-02T19:20:00Z",
            &format!("{}{}", paragraph(OPENER), paragraph(OPENER_SECOND)),
        ),
        discourse_post(
            2,
            "tessa",
            "2024-05-03T06:45:00Z",
            &format!(
                "{}{}",
                paragraph("Same here, see what you wrote:"),
                quote_box("lena_k", OPENER)
            ),
        ),
        discourse_post(
            3,
            "lena_k",
            "2024-05-03T08:00:00Z",
            &format!(
                "{}{}",
                paragraph(
                    "Thank you both, a thinner layer and ten minutes of waiting did it. The pilling is gone."
                ),
                paragraph("The matte one from the pharmacy works best for me.")
            ),
        ),
    ];
    check(
        &discourse_page(&posts),
        DISCOURSE_URL,
        &[
            (
                "lena_k",
                "2024-05-02T19:20:00+00:00",
                &format!("{OPENER} {OPENER_SECOND}"),
            ),
            (
                "tessa",
                "2024-05-03T06:45:00+00:00",
                &format!("Same here, see what you wrote: lena_k: {OPENER}"),
            ),
            (
                "lena_k",
                "2024-05-03T08:00:00+00:00",
                "Thank you both, a thinner layer and ten minutes of waiting did it. The pilling \
                 is gone. The matte one from the pharmacy works best for me.",
            ),
        ],
    );
}

// ---------------------------------------------------------------------------------------------
// vBulletin 4 style: a list cut by advertisements, names marked by nothing but their place.

const VB_URL: &str = "https://science.example/announcements/7781-new-moderators.html";

/// The announcements: date as printed, minute, message.
const ANNOUNCEMENTS: [(&str, &str, &str); 12] = [
    (
        "10/05/2016, 13h16",
        "2016-05-10T13:16",
        "Hello, we will introduce every new moderator of the team in this thread.",
    ),
    (
        "10/05/2016, 13h20",
        "2016-05-10T13:20",
        "To begin with: quill for the environment section and hulk for electronics.",
    ),
    (
        "08/07/2016, 07h48",
        "2016-07-08T07:48",
        "gwydion joins the team for the students' section.",
    ),
    (
        "06/11/2016, 12h13",
        "2016-11-06T12:13",
        "The team welcomes hobbit for the electronics section.",
    ),
    (
        "28/02/2017, 13h20",
        "2017-02-28T13:20",
        "This week two new moderators joined us: yoghurt and flint.",
    ),
    (
        "11/11/2017, 22h25",
        "2017-11-11T22:25",
        "Good evening, cram and kiwi join our ranks for the chemistry forums.",
    ),
    (
        "06/02/2018, 17h13",
        "2018-02-06T17:13",
        "With pleasure we welcome harley to the team of moderators.",
    ),
    (
        "11/02/2018, 16h32",
        "2018-02-11T16:32",
        "The health team grows with the arrival of star as moderator.",
    ),
    (
        "24/02/2018, 18h48",
        "2018-02-24T18:48",
        "Two new moderators: piwi for the medicine forum and tom for biology.",
    ),
    (
        "09/04/2018, 13h44",
        "2018-04-09T13:44",
        "homotopy joins the team to look after the mathematics forum.",
    ),
    (
        "05/11/2018, 18h33",
        "2018-11-05T18:33",
        "The team of moderators grows again with the arrival of lexo.",
    ),
    (
        "20/11/2018, 17h42",
        "2018-11-20T17:42",
        "And the team grows once more, welcome to myope in physics.",
    ),
];

/// One announcement in vBulletin 4's post structure, its classes replaced by a theme's own
/// words and its author's name in a bare `<b>` inside a `<span>`.
fn announcement(index: usize, author: &str) -> String {
    let (date, _, message) = ANNOUNCEMENTS[index];
    let (day, clock) = date.split_once(", ").expect("a date and a clock");
    format!(
        "<li class=\"kato lumi\" id=\"msg_{id}\"><div class=\"rova\"><span class=\"pelu\">\
         <span class=\"tiva\">{day},&nbsp;<span class=\"sumo\">{clock}</span></span></span>\
         <span class=\"dako\">#{number}</span></div>\
         <div class=\"vemi\"><div class=\"nalo\"><div class=\"ruka\"><span class=\"bepo\"><b><span>{author}</span></b></span></div>\
         <span class=\"lito\"><b>team leader</b></span>\
         <div class=\"hoso\" style=\"display:none\"><dl><dt>Joined</dt><dd>January 2003</dd>\
         <dt>Posts</dt><dd>15,861</dd></dl></div></div>\
         <div class=\"mira\"><h2 class=\"pako\">Re: New moderators</h2><div class=\"gelu\">\
         <blockquote class=\"fino\">{message}</blockquote></div></div></div>\
         <div class=\"wosa\"><span class=\"zuki\"></span></div><hr></li>",
        id = 70_000 + 13 * index,
        number = index + 1,
    )
}

/// An advertisement made like a post, but not alike enough to continue the run of records: the
/// same list item, a "Today" date, the sponsor's word where a name stands, and an empty message
/// of hidden slots in one more wrapper, with the template's spacers after it and no footer.
fn advertisement() -> String {
    "<li class=\"kato lumi\"><div class=\"rova\"><span class=\"pelu\"><span class=\"tiva\">Today</span></span></div>\
     <div class=\"vemi\"><div class=\"nalo\"><div class=\"ruka\"><span class=\"bepo\">Advertisement</span></div></div>\
     <div class=\"mira\"><div class=\"gelu\"><div class=\"wera\"><blockquote class=\"fino\">\
     <div class=\"slot\" style=\"display:none\"></div><div class=\"slot-b\" style=\"display:none\"></div>\
     </blockquote></div></div></div><div class=\"after\"></div><div class=\"clear\"></div></div></li>"
        .to_string()
}

/// An advertisement made as alike to a post as the template allows: it continues the run of
/// records, and only its empty message and its date out of the list's order tell it apart.
fn advertisement_made_alike() -> String {
    "<li class=\"kato lumi\"><div class=\"rova\"><span class=\"pelu\"><span class=\"tiva\">Today</span></span></div>\
     <div class=\"vemi\"><div class=\"nalo\"><div class=\"ruka\"><span class=\"bepo\">Advertisement</span></div></div>\
     <div class=\"mira\"><div class=\"gelu\"><blockquote class=\"fino\"><div class=\"slot\" style=\"display:none\"></div>\
     </blockquote></div></div></div></li>"
        .to_string()
}

fn cut_list_page(authors: &[&str], advertisement_after: &[usize]) -> String {
    list_page(authors, advertisement_after, advertisement)
}

/// The page of the announcements by `authors` in turn, with an advertisement made by
/// `advertisement` after each post whose index is in `advertisement_after`.
fn list_page(
    authors: &[&str],
    advertisement_after: &[usize],
    advertisement: fn() -> String,
) -> String {
    let mut items = String::new();
    for index in 0..ANNOUNCEMENTS.len() {
        items.push_str(&announcement(index, authors[index % authors.len()]));
        if advertisement_after.contains(&index) {
            items.push_str(&advertisement());
        }
    }
    format!(
        "<html><head><title>New moderators</title></head><body>\
         <div class=\"crumbs\"><a href=\"/\">Forum</a> <a href=\"/announcements/\">Announcements</a></div>\
         <h1>New moderators</h1><div class=\"mova\"><ol class=\"sipo\" start=\"1\">{items}</ol></div>\
         <div class=\"foot\"><a href=\"/contact\">Contact</a></div></body></html>"
    )
}

/// The announcements by `authors` in turn, as every page of them must read.
fn announcements_by(authors: &[&'static str]) -> Vec<(&'static str, &'static str, &'static str)> {
    ANNOUNCEMENTS
        .iter()
        .enumerate()
        .map(|(index, (_, minute, message))| (authors[index % authors.len()], *minute, *message))
        .collect()
}

#[track_caller]
fn check_cut_list(authors: &[&'static str], advertisement_after: &[usize]) {
    check(
        &cut_list_page(authors, advertisement_after),
        VB_URL,
        &announcements_by(authors),
    );
}

#[test]
fn a_list_without_advertisements_reads_every_post() {
    check_cut_list(&["yoyo", "mh34"], &[]);
}

#[test]
fn posts_alone_between_advertisements_are_read_with_their_names() {
    // After the first post and around the sixth, as the announcement thread showed them.
    check_cut_list(&["yoyo", "mh34"], &[0, 4, 5]);
}

#[test]
fn one_member_writing_a_list_cut_by_advertisements_is_read_everywhere() {
    check_cut_list(&["yoyo"], &[0, 4, 5, 8]);
}

#[test]
fn advertisements_made_alike_in_the_run_of_posts_are_no_posts() {
    let authors = ["yoyo", "mh34"];
    check(
        &list_page(&authors, &[0, 4, 5, 8], advertisement_made_alike),
        VB_URL,
        &announcements_by(&authors),
    );
}
