//! Post authors read by the whole analysis on handwritten thread pages that reproduce what real
//! templates do to the author's name: move it between cells, colour some names, name the author
//! only in an attribute, show guests an unlinked name, put share buttons and member mentions next
//! to it.

mod common;
use common::authors_read;

/// Authors of the posts of `html`, in page order (empty string for a post without one).
fn authors(html: &str) -> Vec<String> {
    authors_read(
        html,
        "http://forum.test/viewtopic.php?t=7",
        "2026-01-01T12:00:00Z",
    )
}

fn check(html: &str, expected: &[&str]) {
    assert_eq!(authors(html), expected, "authors of:\n{html}");
}

/// A page around posts, with enough navigation that the posts are not the whole page.
fn page(posts: &[String]) -> String {
    format!(
        "<html><head><title>Topic</title></head><body>\
         <div class=\"nav\"><a href=\"/index.php\">Index</a> <a href=\"/search.php\">Search</a></div>\
         <div id=\"posts\">{}</div>\
         <div class=\"footer\"><a href=\"/faq.php\">FAQ</a> <a href=\"/rules.php\">Rules</a></div>\
         </body></html>",
        posts.concat()
    )
}

const MESSAGES: [&str; 6] = [
    "I have had this problem with the printer since the last update and nothing helps.",
    "Did you try to reinstall the driver from the vendor page before anything else?",
    "Yes, twice, and the queue still stops after the first page every single time.",
    "Then it might be the spooler service, restart it and look at the event log.",
    "That was it, the spooler had crashed and now every page prints again, thanks.",
    "Glad to hear it, I will mark the topic as solved for the next people who ask.",
];

/// A post whose author link sits in a profile box that sometimes starts with an avatar cell and
/// whose link sometimes carries a colour class, as phpBB and vBulletin print moderators.
fn shifting_profile_post(
    index: usize,
    name: &str,
    user: u32,
    avatar: bool,
    coloured: bool,
) -> String {
    let avatar = if avatar {
        format!(
            "<td><a href=\"/member.php?u={user}\"><img src=\"/a/{user}.png\" alt=\"\"></a></td>"
        )
    } else {
        String::new()
    };
    let class = if coloured {
        " class=\"username-coloured\" style=\"color:#c90\""
    } else {
        ""
    };
    format!(
        "<div class=\"post\" id=\"p{index}\"><table><tr>{avatar}<td>\
         <a href=\"/member.php?u={user}\"{class}>{name}</a></td></tr></table>\
         <div class=\"date\">2025-03-0{day} 10:1{index}</div>\
         <div class=\"content\">{message}</div></div>",
        day = index + 1,
        message = MESSAGES[index]
    )
}

#[test]
fn author_links_are_grouped_by_where_they_lead_not_by_their_cell() {
    let posts = [
        shifting_profile_post(0, "alice", 1, true, false),
        shifting_profile_post(1, "bob", 2, false, true),
        shifting_profile_post(2, "alice", 1, false, false),
        shifting_profile_post(3, "carol", 3, true, true),
        shifting_profile_post(4, "alice", 1, false, false),
    ];
    check(&page(&posts), &["alice", "bob", "alice", "carol", "alice"]);
}

/// A post whose header holds the author's unlinked name in a name element, a share button under
/// a user-menu box, and whose text may mention another member by a profile link.
fn share_button_post(index: usize, name: &str, mention: Option<&str>) -> String {
    let mention = mention.map_or_else(String::new, |other| {
        format!("<a href=\"/user/9-{other}/\" class=\"userMention\">{other}</a> wrote: ")
    });
    format!(
        "<article class=\"message\" id=\"post{index}\"><div class=\"messageAuthorContainer\">\
         <span class=\"username\" itemprop=\"name\">{name}</span>\
         <time datetime=\"2025-03-0{day}T10:1{index}:00+00:00\">{day}. März 2025</time></div>\
         <div class=\"messageUserMenu\"><a href=\"/t/7/?postID={index}#post{index}\">Teilen</a></div>\
         <div class=\"messageText\">{mention}{message}</div></article>",
        day = index + 1,
        message = MESSAGES[index]
    )
}

#[test]
fn share_buttons_and_mentions_are_not_authors() {
    let posts = [
        share_button_post(0, "Marry_", None),
        share_button_post(1, "Sportfreund18", Some("marry")),
        share_button_post(2, "Marry_", None),
        share_button_post(3, "HasiX", Some("sportfreund")),
    ];
    check(
        &page(&posts),
        &["Marry_", "Sportfreund18", "Marry_", "HasiX"],
    );
}

/// A post that names its author only in an attribute of the post element, beside a rank title
/// whose class says "user".
fn attribute_named_post(index: usize, name: &str, rank: &str) -> String {
    format!(
        "<li class=\"message\" id=\"post-{index}\" data-author=\"{name}\">\
         <h3 class=\"userText\">{name} <em class=\"userTitle\">{rank}</em></h3>\
         <span class=\"DateTime\">0{day}.03.2025, 10:1{index}</span>\
         <blockquote class=\"messageText\">{message}</blockquote></li>",
        day = index + 1,
        message = MESSAGES[index]
    )
}

#[test]
fn an_author_named_in_the_record_attribute_outranks_rank_titles() {
    let posts = [
        attribute_named_post(0, "unimatrix27", "Boardneuling"),
        attribute_named_post(1, "Kataster", "V.I.P."),
        attribute_named_post(2, "unimatrix27", "Boardneuling"),
        attribute_named_post(3, "Kataster", "V.I.P."),
    ];
    check(
        &page(&posts),
        &["unimatrix27", "Kataster", "unimatrix27", "Kataster"],
    );
}

/// A post as FluxBB shows it to guests: the name in bold in a definition term, the rank below it
/// in the same bold, no class that says name.
fn bare_name_post(index: usize, name: &str) -> String {
    format!(
        "<div class=\"blockpost\" id=\"p{index}\"><h2><span>#{number} \
         <a href=\"/viewtopic.php?pid={index}#p{index}\">2025-03-0{day} 10:4{index}:00</a></span></h2>\
         <div class=\"postleft\"><dl><dt><strong>{name}</strong></dt>\
         <dd class=\"usertitle\"><strong>Member</strong></dd><dd>Posts: 24</dd></dl></div>\
         <div class=\"postright\"><div class=\"postmsg\"><p>{message}</p></div></div></div>",
        number = index + 1,
        day = index + 1,
        message = MESSAGES[index]
    )
}

#[test]
fn unmarked_names_are_read_from_the_first_steady_bold_column() {
    let posts = [
        bare_name_post(0, "wzrdtales"),
        bare_name_post(1, "nickl"),
        bare_name_post(2, "wzrdtales"),
        bare_name_post(3, "wzrdtales"),
        bare_name_post(4, "nickl"),
    ];
    check(
        &page(&posts),
        &["wzrdtales", "nickl", "wzrdtales", "wzrdtales", "nickl"],
    );
}
