//! Post texts on handwritten thread pages whose records hold, besides the message, template text
//! repeated in every record (a note of the reply form, a row of "Quote Reply Report" buttons, a
//! "log in to reply" line), sometimes longer than the messages themselves; and pages whose post
//! header and message stand in two table rows, the message row made unlike the others; and short
//! messages beside names and dates held in inner elements of the author's link and the `<time>`.
//! A post text varies from record to record; a note the template prints under every post does
//! not; and what lies inside a field is the field's.

use jiff::Timestamp;
use trawl_page::analysis::analyse_text;
use trawl_page::dom::{Document, ROOT};
use trawl_page::links::link_table;
use trawl_page::records::{PageFacts, posts_in_region};
use trawl_page::regions::{Region, record_slots};
use trawl_page::time::DateContext;
use url::Url;

/// The texts of the posts of `html`, in page order.
fn texts(html: &str) -> Vec<String> {
    let url = Url::parse("https://forum.example/showthread.php?t=51").expect("a valid URL");
    let fetched_at: Timestamp = "2024-06-01T12:00:00Z".parse().expect("a valid instant");
    let analysis = analyse_text(html, "UTF-8", &url, &DateContext::new(fetched_at, Some(0)));
    analysis
        .posts
        .iter()
        .map(|post| post.text.clone())
        .collect()
}

#[track_caller]
fn check(html: &str, expected: &[&str]) {
    assert_eq!(texts(html), expected, "texts of:\n{html}");
}

fn page(lang: &str, posts: String) -> String {
    format!(
        "<!DOCTYPE html><html lang=\"{lang}\"><head><meta charset=\"utf-8\">\
         <title>Fan noise - Example Forum</title></head><body>\
         <div id=\"header\"><a href=\"/\">Forum</a> <a href=\"/search\">Search</a></div>\
         <h1>Fan noise</h1><div id=\"thread\">{posts}</div>\
         <div id=\"footer\"><a href=\"/rules\">Rules</a> <a href=\"/imprint\">Imprint</a></div>\
         </body></html>"
    )
}

/// Short messages, shorter than the notes the templates print under them.
const SHORT: [&str; 4] = [
    "My laptop fan is loud all day.",
    "Clean the vents with air.",
    "Did that, still loud.",
    "Then update the BIOS.",
];

/// A record with the message and, under it, template text: the reply note `note` and the
/// buttons `buttons`, each the same in every record.
fn noted_posts(messages: &[&str], note: &str, buttons: &[&str]) -> String {
    messages
        .iter()
        .enumerate()
        .map(|(index, message)| {
            let buttons: String = buttons
                .iter()
                .map(|button| format!("<a href=\"/post.php?do={button}&amp;p={index}\">{button}</a> "))
                .collect();
            format!(
                "<div class=\"postrow\" id=\"post{index}\"><div class=\"poster\">\
                 <a href=\"/member.php?u={user}\">user{user}</a></div>\
                 <div class=\"date\">2024-05-1{index} 08:3{index}</div>\
                 <div class=\"message\">{message}</div>\
                 <div class=\"postfoot\"><p class=\"note\">{note}</p><div class=\"buttons\">{buttons}</div></div>\
                 </div>",
                user = index % 3 + 1,
            )
        })
        .collect()
}

#[test]
fn a_note_repeated_under_every_post_is_not_the_text() {
    let cases = [
        (
            "en",
            "You must be logged in to reply to this topic. Register for a free account or log in \
             with your existing one to take part in the discussion.",
            &["Quote", "Reply", "Report"][..],
        ),
        (
            "de",
            "Du musst angemeldet sein, um auf dieses Thema zu antworten. Registriere dich \
             kostenlos oder melde dich mit deinem Konto an.",
            &["Zitieren", "Antworten", "Melden"][..],
        ),
        (
            "fr",
            "Vous devez être connecté pour répondre à ce sujet. Inscrivez-vous gratuitement ou \
             connectez-vous avec votre compte.",
            &["Citer", "Répondre", "Signaler"][..],
        ),
    ];
    for (lang, note, buttons) in cases {
        check(&page(lang, noted_posts(&SHORT, note, buttons)), &SHORT);
    }
}

#[test]
fn a_row_of_buttons_longer_than_the_messages_is_not_the_text() {
    let buttons = [
        "Quote",
        "Multi-Quote",
        "Reply",
        "Report",
        "Like",
        "Share",
        "Bookmark",
        "Thank",
    ];
    let messages = ["+1", "Same here.", "Works now!", "Thanks all."];
    check(&page("en", noted_posts(&messages, "", &buttons)), &messages);
    let buttons = [
        "Citar",
        "Responder",
        "Reportar",
        "Me gusta",
        "Compartir",
        "Guardar",
    ];
    let messages = ["+1", "Igual aquí.", "¡Ya funciona!", "Gracias."];
    check(&page("es", noted_posts(&messages, "", &buttons)), &messages);
}

/// Long messages of varied shapes (a quote, a list, code) that make message rows unlike each
/// other, while the header rows are alike.
const VARIED: [&str; 4] = [
    "<blockquote><div>Quote:</div><div>the fan starts at boot</div></blockquote>\
     The fan of my laptop runs at full speed from the moment it boots, even when idle.",
    "<ul><li>clean the vents</li><li>check the thermal paste</li></ul>\
     Both helped on my old machine, the paste had dried out completely after four years.",
    "I replaced the paste last week. <table><tr><td>idle</td><td>62 °C</td></tr></table>\
     Temperatures are still high when the machine does nothing at all.",
    "<pre>bios-update --check\nversion 1.14 available</pre>The firmware update \
     lowered the fan curve and now it is quiet.",
];

const VARIED_TEXTS: [&str; 4] = [
    "The fan of my laptop runs at full speed from the moment it boots, even when idle.",
    "Both helped on my old machine, the paste had dried out completely after four years.",
    "Temperatures are still high when the machine does nothing at all.",
    "lowered the fan curve and now it is quiet.",
];

/// A table whose post header (name, date) is one row and whose message is the next row, with a
/// spacer row between posts.
fn two_row_table(labels: [&str; 2]) -> String {
    let rows: String = VARIED
        .iter()
        .enumerate()
        .map(|(index, message)| {
            format!(
                "<tr class=\"posthead\"><td class=\"name\"><a href=\"/profile.php?id={user}\">\
                 member{user}</a></td><td class=\"date\">{posted}: 1{index}.05.2024 20:0{index}</td>\
                 <td class=\"tools\"><a href=\"/post.php?quote={index}\">{quote}</a></td></tr>\
                 <tr><td colspan=\"3\"><div>{message}</div></td></tr>\
                 <tr><td colspan=\"3\" class=\"spacer\"></td></tr>",
                user = index % 3 + 1,
                posted = labels[0],
                quote = labels[1],
            )
        })
        .collect();
    format!("<table class=\"forumline\">{rows}</table>")
}

#[test]
fn a_message_in_the_row_after_the_header_is_the_text() {
    let cases = [
        ("en", ["Posted", "Quote"]),
        ("de", ["Verfasst", "Zitat"]),
        ("nl", ["Geplaatst", "Citeer"]),
    ];
    for (lang, labels) in cases {
        let read = texts(&page(lang, two_row_table(labels)));
        assert_eq!(read.len(), 4, "{lang}: {read:?}");
        for (text, ending) in read.iter().zip(VARIED_TEXTS) {
            assert!(
                text.ends_with(ending),
                "{lang}: {text:?} should end {ending:?}"
            );
        }
    }
}

/// The texts of the posts read from `html` through a region whose records are its header rows
/// (`tr.posthead`) alone, as a crawler reads a page through the pattern the posts of its other
/// pages repeat in.
fn texts_of_header_rows(html: &str) -> Vec<String> {
    let document = Document::parse(html);
    let headers: Vec<_> = document
        .descendants(ROOT)
        .filter(|&node| document.attribute(node, "class") == Some("posthead"))
        .collect();
    let parent = document
        .node(headers[0])
        .parent
        .expect("a row has a parent");
    let regions = [Region {
        parent,
        width: 1,
        records: headers,
        pattern: 1,
        text_share: 0.5,
        node_share: 0.5,
    }];
    let slots = record_slots(&document, &regions);
    let url = Url::parse("https://forum.example/showthread.php?t=51").expect("a valid URL");
    let links = link_table(&document, &regions, &url);
    let fetched_at: Timestamp = "2024-06-01T12:00:00Z".parse().expect("a valid instant");
    let context = DateContext::new(fetched_at, Some(0));
    let facts = PageFacts::new(&document, &regions, &slots, &links, &context);
    posts_in_region(&facts, 0, &url)
        .into_iter()
        .map(|post| post.text)
        .collect()
}

#[test]
fn records_of_header_rows_take_their_message_from_the_next_row() {
    let cases = [
        ("en", ["Posted", "Quote"]),
        ("de", ["Verfasst", "Zitat"]),
        ("pt", ["Enviado", "Citar"]),
    ];
    for (lang, labels) in cases {
        let read = texts_of_header_rows(&page(lang, two_row_table(labels)));
        assert_eq!(read.len(), 4, "{lang}: {read:?}");
        for (text, ending) in read.iter().zip(VARIED_TEXTS) {
            assert!(
                text.ends_with(ending),
                "{lang}: {text:?} should end {ending:?}"
            );
        }
    }
}

/// Posts with short messages whose author link holds the name in an inner element, and whose
/// time element holds its words in one: the inner elements are the fields', never the text.
#[test]
fn short_messages_beside_names_and_times_inside_their_elements_are_the_texts() {
    let names = [
        "Alexandra Konstantinopoulou",
        "Bartholomew Featherstonehaugh",
        "Alexandra Konstantinopoulou",
        "Maximiliane Oberhauser-Lind",
    ];
    let posts: String = SHORT
        .iter()
        .zip(names)
        .enumerate()
        .map(|(index, (message, name))| {
            format!(
                "<div class=\"post\"><div class=\"head\"><a class=\"author\" href=\"/member/{id}\"><span class=\"display\">{name}</span></a>\
                 <time datetime=\"2024-05-0{day}T10:00:00Z\"><span class=\"long-date\">Wednesday, 0{day} May 2024 at 10:00 in the morning</span></time></div>\
                 <div class=\"body\">{message}</div></div>",
                id = name.len(),
                day = index + 1,
            )
        })
        .collect();
    check(&page("en", posts), &SHORT);
}

#[test]
fn messages_holding_numbers_and_short_counts_are_told_apart() {
    // Regression: messages with a number among their words ("post 2 of 3") were taken for a
    // list of reply counts and the whole post list was dropped. A count alone is no message;
    // a message that mentions a number is one.
    let messages = [
        "I replaced the fan in 2 hours and it is quiet now.",
        "Mine took 45 minutes with the right screwdriver.",
        "Thanks, I will order the part for 12 euros.",
    ];
    let posts: String = messages
        .iter()
        .enumerate()
        .map(|(index, message)| {
            format!(
                "<div class=\"post\"><div class=\"head\"><a class=\"username\" href=\"/member.php?u={}\">user{}</a> \
                 <span class=\"date\">May {}, 2024, 10:0{}</span></div><div class=\"body\"><p>{message}</p></div></div>",
                index + 1,
                index + 1,
                index + 3,
                index
            )
        })
        .collect();
    check(&page("en", posts), &messages);
}
