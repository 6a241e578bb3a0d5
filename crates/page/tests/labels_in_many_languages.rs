//! The same thread pages written in eleven languages: the label words around the posts
//! ("Posted by", "Joined", "Posts:", "Reply", "Quote", "Report", a rank, an edit note) change,
//! the markup does not, and its classes say nothing (a theme whose classes are words of its
//! own), so whatever the reading does with words is tried in every language. Pages of our own
//! making, in the shape of a phpBB-style post with a profile column.
//!
//! The author, time and text of every post are the same in every language: a join date
//! labelled in the page's language is never a post time, a "Reply" or "Quote" button never an
//! author, and the label before a name ("Napisane przez", "投稿者") never part of it.

mod common;

use common::{PostRead as Read, posts_read};

/// The posts of `html`, their times cut to the minute (the pages show no seconds).
fn read(html: &str) -> Vec<Read> {
    posts_read(
        html,
        "https://forum.example/viewtopic.php?t=77",
        "2024-06-01T12:00:00Z",
    )
    .into_iter()
    .map(|(author, time, text)| (author, time.chars().take(16).collect(), text))
    .collect()
}

/// The words one language's pages show, and how they write a date and a time.
struct Language {
    code: &'static str,
    posted_by: &'static str,
    joined: &'static str,
    posts: &'static str,
    reply: &'static str,
    quote: &'static str,
    report: &'static str,
    rank: &'static str,
    edited_by: &'static str,
    /// A date from year, month and day, as the language writes it; the clock follows it.
    date: fn(u32, u32, u32) -> String,
}

fn day_month_dots(year: u32, month: u32, day: u32) -> String {
    format!("{day:02}.{month:02}.{year}")
}

fn day_month_slashes(year: u32, month: u32, day: u32) -> String {
    format!("{day:02}/{month:02}/{year}")
}

fn year_first(year: u32, month: u32, day: u32) -> String {
    format!("{year}-{month:02}-{day:02}")
}

fn year_first_slashes(year: u32, month: u32, day: u32) -> String {
    format!("{year}/{month:02}/{day:02}")
}

const LANGUAGES: [Language; 11] = [
    Language {
        code: "en",
        posted_by: "Posted by",
        joined: "Joined:",
        posts: "Posts:",
        reply: "Reply",
        quote: "Quote",
        report: "Report",
        rank: "Member",
        edited_by: "Last edited by",
        date: year_first,
    },
    Language {
        code: "de",
        posted_by: "Verfasst von",
        joined: "Registriert:",
        posts: "Beiträge:",
        reply: "Antworten",
        quote: "Zitieren",
        report: "Melden",
        rank: "Mitglied",
        edited_by: "Zuletzt bearbeitet von",
        date: day_month_dots,
    },
    Language {
        code: "fr",
        posted_by: "Posté par",
        joined: "Inscrit le :",
        posts: "Messages :",
        reply: "Répondre",
        quote: "Citer",
        report: "Signaler",
        rank: "Membre",
        edited_by: "Dernière modification par",
        date: day_month_slashes,
    },
    Language {
        code: "es",
        posted_by: "Publicado por",
        joined: "Registrado:",
        posts: "Mensajes:",
        reply: "Responder",
        quote: "Citar",
        report: "Reportar",
        rank: "Miembro",
        edited_by: "Última edición por",
        date: day_month_slashes,
    },
    Language {
        code: "it",
        posted_by: "Inviato da",
        joined: "Iscritto il:",
        posts: "Messaggi:",
        reply: "Rispondi",
        quote: "Cita",
        report: "Segnala",
        rank: "Utente",
        edited_by: "Ultima modifica di",
        date: day_month_slashes,
    },
    Language {
        code: "pt",
        posted_by: "Postado por",
        joined: "Registrado em:",
        posts: "Mensagens:",
        reply: "Responder",
        quote: "Citar",
        report: "Denunciar",
        rank: "Membro",
        edited_by: "Editado pela última vez por",
        date: day_month_slashes,
    },
    Language {
        code: "nl",
        posted_by: "Geplaatst door",
        joined: "Lid sinds:",
        posts: "Berichten:",
        reply: "Reageren",
        quote: "Citeren",
        report: "Melden",
        rank: "Lid",
        edited_by: "Laatst bewerkt door",
        date: day_month_dots,
    },
    Language {
        code: "pl",
        posted_by: "Napisane przez",
        joined: "Dołączył(a):",
        posts: "Posty:",
        reply: "Odpowiedz",
        quote: "Cytuj",
        report: "Zgłoś",
        rank: "Użytkownik",
        edited_by: "Ostatnio edytowany przez",
        date: day_month_dots,
    },
    Language {
        code: "ru",
        posted_by: "Автор",
        joined: "Зарегистрирован:",
        posts: "Сообщения:",
        reply: "Ответить",
        quote: "Цитата",
        report: "Пожаловаться",
        rank: "Участник",
        edited_by: "Последний раз редактировалось",
        date: day_month_dots,
    },
    Language {
        code: "zh",
        posted_by: "发表者",
        joined: "注册时间:",
        posts: "帖子:",
        reply: "回复",
        quote: "引用",
        report: "举报",
        rank: "会员",
        edited_by: "最后编辑",
        date: year_first_slashes,
    },
    Language {
        code: "ja",
        posted_by: "投稿者",
        joined: "登録日:",
        posts: "投稿数:",
        reply: "返信",
        quote: "引用",
        report: "報告",
        rank: "メンバー",
        edited_by: "最終編集者",
        date: year_first_slashes,
    },
];

/// One post: author, join date (year, month, day), post time (year, month, day, hour, minute),
/// text, whether it shows an edit note.
type PostSpec = (
    &'static str,
    (u32, u32, u32),
    (u32, u32, u32, u32, u32),
    &'static str,
    bool,
);

/// A thread page in `language`: each post shows its subject, "Posted by" with the name (a
/// profile link when `linked`, else bold text), the time, the message, an edit note when the
/// post was edited, a profile column (name, rank, post count, join date) and a row of buttons.
fn thread(language: &Language, posts: &[PostSpec], linked: bool) -> String {
    let body: String = posts
        .iter()
        .enumerate()
        .map(|(index, (author, joined, written, text, edited))| {
            let number = 9100 + index;
            let (year, month, day, hour, minute) = *written;
            let time = format!("{} {hour:02}:{minute:02}", (language.date)(year, month, day));
            let join_date = (language.date)(joined.0, joined.1, joined.2);
            let name = if linked {
                format!("<a href=\"./memberlist.php?mode=viewprofile&amp;u={}\">{author}</a>", author.len() * 7)
            } else {
                format!("<b>{author}</b>")
            };
            let edit_note = if *edited {
                format!(
                    "<div class=\"ne\">{} {author}; {} {:02}:{:02}</div>",
                    language.edited_by,
                    (language.date)(year, month, day),
                    (hour + 2) % 24,
                    minute
                )
            } else {
                String::new()
            };
            format!(
                "<div class=\"pu\" id=\"p{number}\"><div class=\"ba\">\
                 <h3 class=\"fi\"><a href=\"#p{number}\">Re: Heat pump noise</a></h3>\
                 <p class=\"au\">{posted_by} <strong>{name}</strong> » {time}</p>\
                 <div class=\"co\">{text}</div>{edit_note}</div>\
                 <dl class=\"pr\"><dt><b>{author}</b></dt><dd>{rank}</dd>\
                 <dd><strong>{posts_label}</strong> {count}</dd>\
                 <dd><strong>{joined_label}</strong> {join_date}</dd></dl>\
                 <ul class=\"bu\"><li><a href=\"./posting.php?mode=reply&amp;p={number}\">{reply}</a></li>\
                 <li><a href=\"./posting.php?mode=quote&amp;p={number}\">{quote}</a></li>\
                 <li><a href=\"./report.php?p={number}\">{report}</a></li></ul></div>",
                posted_by = language.posted_by,
                rank = language.rank,
                posts_label = language.posts,
                count = 40 + 13 * author.len(),
                joined_label = language.joined,
                reply = language.reply,
                quote = language.quote,
                report = language.report,
            )
        })
        .collect();
    format!(
        "<!DOCTYPE html><html lang=\"{code}\"><head><meta charset=\"utf-8\">\
         <title>Heat pump noise</title></head><body>\
         <div class=\"he\"><a href=\"./index.php\">Forum</a> <a href=\"./search.php\">?</a></div>\
         <h2><a href=\"./viewtopic.php?t=77\">Heat pump noise</a></h2>{body}\
         <div class=\"fo\"><a href=\"./faq.php\">FAQ</a></div></body></html>",
        code = language.code,
    )
}

#[track_caller]
fn check(language: &Language, posts: &[PostSpec], linked: bool) {
    let expected: Vec<Read> = posts
        .iter()
        .map(|(author, _, (year, month, day, hour, minute), text, _)| {
            (
                author.to_string(),
                format!("{year}-{month:02}-{day:02}T{hour:02}:{minute:02}"),
                text.to_string(),
            )
        })
        .collect();
    let html = thread(language, posts, linked);
    assert_eq!(read(&html), expected, "{} posts of:\n{html}", language.code);
}

/// Two posts whose authors joined in the order they wrote: the join dates are in order as the
/// post times are, so only what labels them tells them apart.
const TWO_POSTS: [PostSpec; 2] = [
    (
        "harald_k",
        (2015, 3, 12),
        (2024, 5, 20, 8, 10),
        "Our heat pump makes a humming noise at night, is that normal?",
        false,
    ),
    (
        "mariposa",
        (2019, 11, 3),
        (2024, 5, 21, 9, 45),
        "A low hum is normal, a rattle is not. Check the mounting feet.",
        true,
    ),
];

/// Five posts, two members writing twice.
const FIVE_POSTS: [PostSpec; 5] = [
    (
        "harald_k",
        (2015, 3, 12),
        (2024, 5, 20, 8, 10),
        "Our heat pump makes a humming noise at night, is that normal?",
        false,
    ),
    (
        "mariposa",
        (2019, 11, 3),
        (2024, 5, 20, 9, 45),
        "A low hum is normal, a rattle is not. Check the mounting feet.",
        true,
    ),
    (
        "tomek",
        (2012, 1, 30),
        (2024, 5, 20, 14, 2),
        "Ours hummed until the installer added rubber pads under it.",
        false,
    ),
    (
        "harald_k",
        (2015, 3, 12),
        (2024, 5, 21, 7, 30),
        "Thank you, the feet were loose. I tightened them and it is quiet.",
        true,
    ),
    (
        "mariposa",
        (2019, 11, 3),
        (2024, 5, 21, 18, 5),
        "Glad it was that simple!",
        false,
    ),
];

#[test]
fn posts_with_profile_links_read_alike_in_every_language() {
    for language in &LANGUAGES {
        check(language, &FIVE_POSTS, true);
        check(language, &TWO_POSTS, true);
    }
}

#[test]
fn posts_with_names_as_bold_text_read_alike_in_every_language() {
    for language in &LANGUAGES {
        check(language, &FIVE_POSTS, false);
        check(language, &TWO_POSTS, false);
    }
}
