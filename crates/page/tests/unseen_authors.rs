//! Post authors on handwritten thread pages of kinds the development pages do not show: the
//! author's name sits beside badges that are as short as a name and as often marked "user" or
//! "member" in the markup (a user title or rank, a group, a post count, a reputation or like
//! score) and sometimes in the same link as a counter. Profile URLs are spelled in the forum's
//! language or in no recognisable way at all, so the name cannot be told by its URL alone: the
//! author is read by what authors are (a name that repeats only for its person, not a number,
//! not a badge that different persons share).

mod common;
use common::authors_read;

/// One post of a fixture: author name, profile path, rank title, post count, day of March 2024.
struct Poster {
    name: &'static str,
    profile: &'static str,
    rank: &'static str,
    count: &'static str,
}

const MESSAGES: [&str; 6] = [
    "Since the last update the backup job stops half way and the log shows nothing useful at all.",
    "Check whether the target disk is full, mine stopped the same way when it ran out of space.",
    "The disk has plenty of room, but I noticed the job always stops at the same large file.",
    "Large files over four gigabytes fail on FAT formatted drives, format it with another system.",
    "That was it, the drive was FAT32. After formatting it the backup finished without errors.",
    "Good to hear. Please mark the thread as solved so that others find the answer quickly.",
];

/// The authors of the posts of `html` as read (the name, or "" when none), in page order.
fn authors(html: &str) -> Vec<String> {
    authors_read(
        html,
        "https://forum.example/thread/418/",
        "2024-06-01T12:00:00Z",
    )
}

#[track_caller]
fn check(html: &str, expected: &[&str]) {
    assert_eq!(authors(html), expected, "authors of:\n{html}");
}

/// A page around the posts, with navigation and a footer so that the posts are not the page.
fn page(lang: &str, posts: String) -> String {
    format!(
        "<!DOCTYPE html><html lang=\"{lang}\"><head><meta charset=\"utf-8\">\
         <title>Backup stops - Example Forum</title></head><body>\
         <div id=\"header\"><a href=\"/\">Forum</a> <a href=\"/search\">Search</a> \
         <a href=\"/login\">Login</a></div><h1>Backup stops</h1>\
         <div id=\"posts\">{posts}</div>\
         <div id=\"footer\"><a href=\"/rules\">Rules</a> <a href=\"/privacy\">Privacy</a></div>\
         </body></html>"
    )
}

/// The names each fixture expects, in order.
fn names(posters: &[Poster]) -> Vec<&'static str> {
    posters.iter().map(|poster| poster.name).collect()
}

/// Posters of a thread where two persons share each rank and one person posts twice, so that
/// only the names tell persons apart.
fn posters(
    ranks: [&'static str; 2],
    profiles: [&'static str; 4],
    counts: [&'static str; 4],
) -> Vec<Poster> {
    let names = ["marta_k", "Jonas", "ewa.l", "Piotr W"];
    let order = [0, 1, 2, 0, 3];
    order
        .iter()
        .map(|&person| Poster {
            name: names[person],
            profile: profiles[person],
            // Persons 0 and 2 share the first rank, 1 and 3 the second.
            rank: ranks[person % 2],
            count: counts[person],
        })
        .collect()
}

/// A classic table layout (vBulletin 3 style): the name link above a user title and a post
/// count in small type, the date in a header row.
fn classic_table(posters: &[Poster], count_label: &str) -> String {
    posters
        .iter()
        .enumerate()
        .map(|(index, poster)| {
            format!(
                "<table class=\"tborder\" id=\"post{id}\"><tr><td class=\"thead\" colspan=\"2\">\
                 <a name=\"post{id}\"></a>0{day}-03-2024, 10:{minute:02}</td></tr>\
                 <tr><td class=\"alt2\" width=\"175\"><div><a class=\"bigusername\" \
                 href=\"{profile}\">{name}</a></div><div class=\"smallfont\">{rank}</div>\
                 <div class=\"smallfont\"><div>{count_label}: {count}</div></div></td>\
                 <td class=\"alt1\"><div id=\"post_message_{id}\">{message}</div></td></tr></table>",
                id = 700 + index,
                day = index + 1,
                minute = 5 * index,
                profile = poster.profile,
                name = poster.name,
                rank = poster.rank,
                count = poster.count,
                message = MESSAGES[index],
            )
        })
        .collect()
}

/// A modern card layout: the rank as a badge marked `user-title` before the name link, the
/// post count marked `user-posts`, the profile link with no class at all.
fn badge_first_cards(posters: &[Poster]) -> String {
    posters
        .iter()
        .enumerate()
        .map(|(index, poster)| {
            format!(
                "<div class=\"post-card\" id=\"c{index}\"><div class=\"post-side\">\
                 <span class=\"user-title\">{rank}</span><a href=\"{profile}\">{name}</a>\
                 <span class=\"user-posts\">{count}</span></div><div class=\"post-main\">\
                 <span class=\"post-date\">2024-03-0{day} 09:{minute:02}</span>\
                 <div class=\"post-body\"><p>{message}</p></div></div></div>",
                day = index + 1,
                minute = 7 * index,
                profile = poster.profile,
                name = poster.name,
                rank = poster.rank,
                count = poster.count,
                message = MESSAGES[index],
            )
        })
        .collect()
}

/// A layout whose name link also holds the post counter (`<a><span>name</span><small>12
/// posts</small></a>`), and whose reputation score is a link of its own before the name.
fn glued_counter_rows(posters: &[Poster], unit: &str) -> String {
    posters
        .iter()
        .enumerate()
        .map(|(index, poster)| {
            format!(
                "<li class=\"entry\" id=\"e{index}\"><header>\
                 <a class=\"score\" href=\"/karma/{index}\">+{karma}</a> \
                 <a href=\"{profile}\"><span>{name}</span><small>{count} {unit}</small></a> \
                 <time datetime=\"2024-03-0{day}T1{index}:00:00Z\">0{day}.03.2024</time>\
                 </header><section class=\"text\">{message}</section></li>",
                karma = 10 + 3 * index,
                day = index + 1,
                profile = poster.profile,
                name = poster.name,
                count = poster.count,
                message = MESSAGES[index],
            )
        })
        .collect()
}

/// A definition-list profile (phpBB 3 style) whose name link carries no class and leads to a
/// profile URL in the forum's language, with the rank and the statistics as terms beside it.
fn profile_list(posters: &[Poster], labels: [&str; 2]) -> String {
    posters
        .iter()
        .enumerate()
        .map(|(index, poster)| {
            format!(
                "<div class=\"post bg{parity}\" id=\"p{id}\"><div class=\"inner\">\
                 <div class=\"postbody\"><h3><a href=\"#p{id}\">Re: Backup stops</a></h3>\
                 <p class=\"author\">{day}. März 2024, 1{index}:20</p>\
                 <div class=\"content\">{message}</div></div>\
                 <dl class=\"postprofile\"><dt><a href=\"{profile}\">{name}</a></dt>\
                 <dd class=\"user-rank\">{rank}</dd><dd><strong>{posts}:</strong> {count}</dd>\
                 <dd><strong>{joined}:</strong> 3. Januar 2019</dd></dl></div></div>",
                parity = index % 2 + 1,
                id = 90 + index,
                day = index + 1,
                profile = poster.profile,
                name = poster.name,
                rank = poster.rank,
                count = poster.count,
                posts = labels[0],
                joined = labels[1],
                message = MESSAGES[index],
            )
        })
        .collect()
}

#[test]
fn user_titles_shared_by_different_persons_are_not_the_author() {
    let cases = [
        // English, profile links in a URL no rule knows.
        (
            "en",
            posters(
                ["Senior Member", "Newbie"],
                ["/c/marta", "/c/jonas", "/c/ewa", "/c/piotr"],
                ["1,234", "15", "307", "2"],
            ),
        ),
        // Polish ranks and profile URLs.
        (
            "pl",
            posters(
                ["Stały bywalec", "Nowicjusz"],
                [
                    "/uzytkownicy/marta,5",
                    "/uzytkownicy/jonas,9",
                    "/uzytkownicy/ewa,12",
                    "/uzytkownicy/piotr,40",
                ],
                ["1 234", "15", "307", "2"],
            ),
        ),
        // Norwegian.
        (
            "no",
            posters(
                ["Moderator", "Ny bruker"],
                ["/brukere/1", "/brukere/2", "/brukere/3", "/brukere/4"],
                ["880", "4", "61", "1"],
            ),
        ),
    ];
    for (lang, posters) in cases {
        check(&page(lang, badge_first_cards(&posters)), &names(&posters));
        check(
            &page(lang, classic_table(&posters, "Posts")),
            &names(&posters),
        );
    }
}

#[test]
fn counters_beside_or_inside_the_name_link_are_not_the_author() {
    let cases = [
        (
            "en",
            "posts",
            posters(
                ["Member", "Member"],
                ["/who/1", "/who/2", "/who/3", "/who/4"],
                ["12", "1,204", "38", "5"],
            ),
        ),
        (
            "de",
            "Beiträge",
            posters(
                ["Mitglied", "Mitglied"],
                [
                    "/mitglieder/marta.1/",
                    "/mitglieder/jonas.2/",
                    "/mitglieder/ewa.3/",
                    "/mitglieder/piotr.4/",
                ],
                ["12", "1.204", "38", "5"],
            ),
        ),
        (
            "ru",
            "сообщений",
            posters(
                ["Участник", "Участник"],
                ["/id/1", "/id/2", "/id/3", "/id/4"],
                ["12", "1 204", "38", "5"],
            ),
        ),
    ];
    for (lang, unit, posters) in cases {
        check(
            &page(lang, glued_counter_rows(&posters, unit)),
            &names(&posters),
        );
    }
}

#[test]
fn profile_urls_in_the_forums_language_mark_the_author_link() {
    let cases = [
        (
            "fr",
            ["Messages", "Inscription"],
            posters(
                ["Membre actif", "Nouveau membre"],
                [
                    "/membres/profil/1",
                    "/membres/profil/2",
                    "/membres/profil/3",
                    "/membres/profil/4",
                ],
                ["1 234", "15", "307", "2"],
            ),
        ),
        (
            "es",
            ["Mensajes", "Registrado"],
            posters(
                ["Usuario veterano", "Usuario nuevo"],
                ["/usuario/1", "/usuario/2", "/usuario/3", "/usuario/4"],
                ["1.234", "15", "307", "2"],
            ),
        ),
        (
            "de",
            ["Beiträge", "Registriert"],
            posters(
                ["Erfahrener Benutzer", "Neuer Benutzer"],
                [
                    "/benutzer/marta",
                    "/benutzer/jonas",
                    "/benutzer/ewa",
                    "/benutzer/piotr",
                ],
                ["1.234", "15", "307", "2"],
            ),
        ),
        (
            "it",
            ["Messaggi", "Iscritto"],
            posters(
                ["Utente esperto", "Nuovo utente"],
                ["/utente/1", "/utente/2", "/utente/3", "/utente/4"],
                ["1.234", "15", "307", "2"],
            ),
        ),
    ];
    for (lang, labels, posters) in cases {
        check(
            &page(lang, profile_list(&posters, labels)),
            &names(&posters),
        );
    }
}

/// A post whose author is linked beside a floor label that links to the post itself ("楼主",
/// "沙发": each label shown once, each to its own post), Discuz style.
fn floor_labelled_post(index: usize, poster: &Poster) -> String {
    const FLOORS: [&str; 5] = ["楼主", "沙发", "板凳", "地板", "5#"];
    format!(
        "<div id=\"post_{id}\"><table class=\"plhin\"><tr><td class=\"pls\">\
         <div class=\"authi\"><a href=\"{profile}\" class=\"xw1\">{name}</a></div>\
         <p><em>{rank}</em></p></td><td class=\"plc\"><div class=\"pi\">\
         <strong><a href=\"/forum.php?mod=redirect&amp;goto=findpost&amp;pid={id}\">{floor}</a></strong>\
         <em>发表于 2024-3-{day} 10:2{index}</em></div><div class=\"t_f\">{message}</div></td></tr></table></div>",
        id = 4400 + index,
        profile = poster.profile,
        name = poster.name,
        rank = poster.rank,
        floor = FLOORS[index],
        day = index + 1,
        message = MESSAGES[index],
    )
}

/// A post that names its author in an attribute and whose message links words to a glossary,
/// one different word in each post.
fn glossary_linked_post(index: usize, poster: &Poster) -> String {
    const WORDS: [&str; 5] = ["Rezept", "Datenschutz", "Patient", "Fehler", "Arzt"];
    format!(
        "<li id=\"post-{id}\" class=\"message\" data-author=\"{name}\">\
         <div class=\"messageUserInfo\"><a href=\"{profile}\" class=\"avatar\"><img src=\"/a.png\" alt=\"\"></a>\
         <em class=\"userTitle\">{rank}</em></div><div class=\"messageInfo\">\
         <blockquote class=\"messageText\">Ein <a href=\"/lexikon/{word}\" class=\"internalLink\">{word}</a> \
         {message}</blockquote><span class=\"DateTime\">0{day}.03.2024 um 10:1{index}</span></div></li>",
        id = 9100 + index,
        name = poster.name,
        profile = poster.profile,
        rank = poster.rank,
        word = WORDS[index],
        day = index + 1,
        message = MESSAGES[index],
    )
}

#[test]
fn links_that_differ_in_every_post_do_not_outrank_names() {
    let chinese = posters(
        ["新手上路", "注册会员"],
        [
            "/space-uid-5.html",
            "/space-uid-9.html",
            "/space-uid-12.html",
            "/space-uid-40.html",
        ],
        ["3", "120", "8", "61"],
    );
    let floors: String = chinese
        .iter()
        .enumerate()
        .map(|(index, poster)| floor_labelled_post(index, poster))
        .collect();
    check(&page("zh", floors), &names(&chinese));
    let german = posters(
        ["Boardneuling", "V.I.P."],
        [
            "/mitglieder/marta.5/",
            "/mitglieder/jonas.9/",
            "/mitglieder/ewa.12/",
            "/mitglieder/piotr.40/",
        ],
        ["3", "120", "8", "61"],
    );
    let glossary: String = german
        .iter()
        .enumerate()
        .map(|(index, poster)| glossary_linked_post(index, poster))
        .collect();
    check(&page("de", glossary), &names(&german));
}
