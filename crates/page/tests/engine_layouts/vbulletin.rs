//! vBulletin 3 (English: one table per post, "Today" and "Yesterday" dates, a similar-threads
//! table), vBulletin 4 (German: an ordered list of posts, a reputation image, quotes with the
//! name in bold, a similar-threads list whose entries have starters and dates) and vBulletin 5
//! (Spanish: the first post apart, the date as text only, likes and a reply editor).

use crate::check::{EnginePage, Wanted, check};
use crate::threads::{ENGLISH, GERMAN, SPANISH};

#[test]
fn vbulletin_3_in_english() {
    // The forum runs at GMT -5; the page is fetched at 07:00 on 2 April 2025 forum time.
    let shown = [
        ("05-14-2019, 03:15 PM", "2019-05-14T15:15"),
        ("05-15-2019, 09:40 AM", "2019-05-15T09:40"),
        ("03-30-2025, 11:02 PM", "2025-03-30T23:02"),
        ("Yesterday, 11:40 PM", "2025-04-01T23:40"),
        ("Today, 06:10 AM", "2025-04-02T06:10"),
    ];
    let mut posts = String::new();
    let mut wanted = Vec::new();
    for (index, (message, (date, iso))) in ENGLISH.messages.iter().zip(shown).enumerate() {
        let post_id = 31000 + index;
        let (quote_html, quote_text) = if index == 2 {
            (
                "<div style=\"margin:20px; margin-top:5px; \"><div class=\"smallfont\" style=\"margin-bottom:2px\">Quote:</div>\
                 <table cellpadding=\"6\" cellspacing=\"0\" border=\"0\" width=\"100%\"><tr><td class=\"alt2\" style=\"border:1px inset\">\
                 <div>Originally Posted by <strong>Bob Turner</strong> <a href=\"showthread.php?p=31001#post31001\" rel=\"nofollow\"><img class=\"inlineimg\" src=\"images/buttons/viewpost.gif\" border=\"0\" alt=\"View Post\"></a></div>\
                 <div style=\"font-style:italic\">Did you try turning off the power saving mode?</div></td></tr></table></div>",
                "Quote: Originally Posted by Bob Turner Did you try turning off the power saving mode? ",
            )
        } else {
            ("", "")
        };
        let signature = if index == 0 {
            format!("<div>__________________<br>{}</div>", ENGLISH.signature)
        } else {
            String::new()
        };
        posts.push_str(&format!(
            "<div id=\"edit{post_id}\" style=\"padding:0px 0px 6px 0px\">\
             <table id=\"post{post_id}\" class=\"tborder\" cellpadding=\"6\" cellspacing=\"0\" border=\"0\" width=\"100%\" align=\"center\">\
             <tr><td class=\"thead\" style=\"font-weight:normal\"><a name=\"post{post_id}\"><img class=\"inlineimg\" src=\"images/statusicon/post_old.gif\" alt=\"Old\" border=\"0\"></a> {date}</td>\
             <td class=\"thead\" style=\"font-weight:normal\" align=\"right\">&nbsp;#<a href=\"showpost.php?p={post_id}&amp;postcount={number}\" target=\"new\" rel=\"nofollow\" id=\"postcount{post_id}\" name=\"{number}\"><strong>{number}</strong></a></td></tr>\
             <tr valign=\"top\"><td class=\"alt2\" width=\"175\"><div id=\"postmenu_{post_id}\"><a class=\"bigusername\" href=\"member.php?u={id}\">{name}</a></div>\
             <div class=\"smallfont\">{title}</div><div class=\"smallfont\">&nbsp;<br><div>Join Date: Mar 2009</div><div>Location: Leeds</div>\
             <div>Posts: {count}</div><div><span id=\"repdisplay_{post_id}_{id}\"><img class=\"inlineimg\" src=\"images/reputation/reputation_pos.gif\" alt=\"{name} is on a distinguished road\" border=\"0\"></span></div></div></td>\
             <td class=\"alt1\" id=\"td_post_{post_id}\"><div class=\"smallfont\"><img class=\"inlineimg\" src=\"images/icons/icon1.gif\" alt=\"Default\" border=\"0\"> <strong>Re: {subject}</strong></div>\
             <hr size=\"1\" style=\"color:#D1D1E1\"><div id=\"post_message_{post_id}\">{quote_html}{body}</div>{signature}</td></tr>\
             <tr><td class=\"alt2\"><img class=\"inlineimg\" src=\"images/statusicon/user_offline.gif\" alt=\"{name} is offline\" border=\"0\"></td>\
             <td class=\"alt1\" align=\"right\"><a href=\"newreply.php?do=newreply&amp;p={post_id}\" rel=\"nofollow\"><img src=\"images/buttons/quote.gif\" alt=\"Reply With Quote\" border=\"0\"></a></td></tr>\
             </table></div>",
            number = index + 1,
            name = message.name,
            id = message.user_id,
            title = message.user_title,
            count = message.post_count,
            subject = ENGLISH.subject,
            body = message.html_with_breaks(),
        ));
        wanted.push(Wanted::new(
            format!("member.php?u={}", message.user_id),
            iso,
            &format!("{quote_text}{}", message.text()),
        ));
    }
    let similar: String = [
        ("Router reboots at night", "frank", "Networking", 4, "03-12-2019 10:11 PM"),
        ("WiFi slow after update", "gina_r", "Networking", 9, "04-02-2019 08:15 AM"),
        ("Which mesh system?", "henry", "Hardware", 17, "04-20-2019 06:40 PM"),
    ]
    .iter()
    .enumerate()
    .map(|(index, (title, starter, forum, replies, last))| {
        format!(
            "<tr><td class=\"alt1\" width=\"100%\"><div><a href=\"showthread.php?t={}\" title=\"\">{title}</a></div>\
             <div class=\"smallfont\">{starter}</div></td><td class=\"alt2\" nowrap=\"nowrap\">{forum}</td>\
             <td class=\"alt1\" align=\"center\">{replies}</td><td class=\"alt2\" align=\"right\">{last}</td></tr>",
            700 + index
        )
    })
    .collect();
    let body = format!(
        "<table class=\"tborder\" cellpadding=\"6\" cellspacing=\"1\" border=\"0\" width=\"100%\"><tr><td class=\"alt1\">\
         <strong>{subject}</strong></td></tr></table><div id=\"posts\">{posts}<div id=\"lastpost\"></div></div>\
         <table class=\"tborder\" cellpadding=\"6\" cellspacing=\"1\" border=\"0\" width=\"100%\" id=\"similarthreads\">\
         <tr><td class=\"tcat\" colspan=\"4\">Similar Threads</td></tr><tr><td class=\"thead\">Thread</td><td class=\"thead\">Forum</td>\
         <td class=\"thead\">Replies</td><td class=\"thead\">Last Post</td></tr>{similar}</table>\
         <div class=\"smallfont\" align=\"center\">All times are GMT -5. The time now is <span class=\"time\">07:00 AM</span>.</div>",
        subject = ENGLISH.subject,
    );
    check(
        EnginePage {
            engine: "vBulletin 3 (English)",
            url: "https://forums.example.com/showthread.php?t=5511",
            language: "en",
            title: "Router drops the connection every evening - Example Forums",
            body,
        },
        &wanted,
    );
}

#[test]
fn vbulletin_4_in_german() {
    // The forum runs at UTC+2; the page is fetched at 14:00 on 2 April 2025 forum time.
    let shown = [
        (
            "14.05.2019,&nbsp;<span class=\"time\">15:15</span>",
            "2019-05-14T15:15",
        ),
        (
            "15.05.2019,&nbsp;<span class=\"time\">09:40</span>",
            "2019-05-15T09:40",
        ),
        (
            "Gestern,&nbsp;<span class=\"time\">22:40</span>",
            "2025-04-01T22:40",
        ),
        (
            "Heute,&nbsp;<span class=\"time\">08:05</span>",
            "2025-04-02T08:05",
        ),
    ];
    let mut posts = String::new();
    let mut wanted = Vec::new();
    for (index, (message, (date, iso))) in GERMAN.messages.iter().zip(shown).enumerate() {
        let post_id = 8800 + index;
        let (quote_html, quote_text) = if index == 3 {
            (
                "<div class=\"bbcode_container\"><div class=\"bbcode_quote\"><div class=\"quote_container\"><div class=\"bbcode_quote_container\"></div>\
                 <div class=\"bbcode_postedby\"><img title=\"Zitat\" src=\"images/misc/quote_icon.png\"> Zitat von <strong>maria_s</strong>\
                 <a href=\"showthread.php?p=8801#post8801\" rel=\"nofollow\"><img class=\"inlineimg\" src=\"images/buttons/viewpost-right.png\" alt=\"Beitrag anzeigen\"></a></div>\
                 <div class=\"message\">Das klingt nach Luft im System.</div></div></div></div>",
                "Zitat von maria_s Das klingt nach Luft im System. ",
            )
        } else {
            ("", "")
        };
        let signature = if index == 0 {
            format!(
                "<div class=\"after_content\"><blockquote class=\"signature restore\"><div class=\"signaturecontainer\">{}</div></blockquote></div>",
                GERMAN.signature
            )
        } else {
            String::new()
        };
        posts.push_str(&format!(
            "<li class=\"postbitlegacy postbitim postcontainer old\" id=\"post_{post_id}\">\
             <div class=\"posthead\"><span class=\"postdate old\"><span class=\"date\">{date}</span></span>\
             <span class=\"nodecontrols\"><a name=\"post{post_id}\" href=\"showthread.php?t=9&amp;p={post_id}#post{post_id}\" class=\"postcounter\">#{number}</a><a id=\"postcount{post_id}\" name=\"{number}\"></a></span></div>\
             <div class=\"postdetails\"><div class=\"userinfo\"><div class=\"username_container\"><div class=\"popupmenu memberaction\">\
             <a class=\"username offline popupctrl\" href=\"member.php?u={id}\" title=\"{name} ist offline\"><strong>{name}</strong></a></div>\
             <img class=\"inlineimg onlinestatus\" src=\"images/statusicon/user-offline.png\" alt=\"{name} ist offline\"></div>\
             <span class=\"usertitle\">{title}</span>\
             <span class=\"postbit_reputation\" id=\"repdisplay_{post_id}_{id}\" title=\"{name} ist ein sehr geschätzter Mensch\"><img class=\"repimg\" src=\"images/reputation/reputation_pos.png\" alt=\"\"></span>\
             <a class=\"postuseravatar\" href=\"member.php?u={id}\" title=\"{name} ist offline\"><img src=\"image.php?u={id}\" alt=\"Avatar von {name}\" title=\"Avatar von {name}\"></a><hr>\
             <dl class=\"userinfo_extra\"><dt>Registriert seit</dt><dd>12.01.2015</dd><dt>Ort</dt><dd>Kempten</dd><dt>Beiträge</dt><dd>{count}</dd></dl></div>\
             <div class=\"postbody\"><div class=\"postrow has_after_content\"><h2 class=\"title icon\">{subject}</h2>\
             <div class=\"content\"><div id=\"post_message_{post_id}\"><blockquote class=\"postcontent restore \">{quote_html}{body}</blockquote></div></div></div>\
             {signature}<div class=\"cleardiv\"></div></div></div>\
             <div class=\"postfoot\"><div class=\"textcontrols floatcontainer\"><span class=\"postcontrols\">\
             <a id=\"qrwq_{post_id}\" class=\"newreply\" href=\"newreply.php?do=newreply&amp;p={post_id}\" rel=\"nofollow\" title=\"Antwort mit Zitat\"><img src=\"images/buttons/quote-left.png\" alt=\"Antwort mit Zitat\"> Zitat</a></span></div></div><hr></li>",
            number = index + 1,
            name = message.name,
            id = message.user_id,
            title = message.user_title,
            count = message.post_count,
            subject = GERMAN.subject,
            body = message.html_with_breaks(),
        ));
        wanted.push(Wanted::new(
            format!("member.php?u={}", message.user_id),
            iso,
            &format!("{quote_text}{}", message.text()),
        ));
    }
    let similar: String = [
        ("Therme geht nachts aus", "klaus", 5, "03.02.2019", "10:11"),
        ("Heizkörper bleibt kalt", "sabine_w", 12, "17.03.2019", "18:30"),
        ("Pumpe brummt", "jochen", 2, "01.04.2019", "07:55"),
    ]
    .iter()
    .enumerate()
    .map(|(index, (title, starter, replies, day, clock))| {
        format!(
            "<li class=\"floatcontainer\"><div class=\"titleblock\"><h6><a href=\"showthread.php?t={thread}\" title=\"{title}\">{title}</a></h6>\
             <div class=\"starter_forum\">Von <a href=\"member.php?u={user}\">{starter}</a> im Forum Heizung</div></div>\
             <div class=\"dateblock\"><span class=\"shade\">Antworten:</span> {replies}<div class=\"starter_forum\">\
             <span class=\"shade\">Letzter Beitrag:</span> {day}, <span class=\"time\">{clock}</span></div></div></li>",
            thread = 60 + index,
            user = 400 + index,
        )
    })
    .collect();
    let body = format!(
        "<div id=\"pagetitle\"><h1>Thema: <span class=\"threadtitle\"><a href=\"showthread.php?t=9\">{subject}</a></span></h1></div>\
         <div id=\"postlist\" class=\"postlist restrain\"><ol id=\"posts\" class=\"posts\" start=\"1\">{posts}</ol></div>\
         <div id=\"similar_threads\"><h4 class=\"threadinfohead blockhead\">Ähnliche Themen</h4>\
         <div id=\"similar_threads_list\" class=\"thread_info_block blockbody formcontrols\"><ol class=\"similar_threads\">{similar}</ol></div></div>\
         <div id=\"footer_time\" class=\"shade footer_time\">Alle Zeitangaben in WEZ +2. Es ist jetzt <span class=\"time\">14:00</span> Uhr.</div>",
        subject = GERMAN.subject,
    );
    check(
        EnginePage {
            engine: "vBulletin 4 (German)",
            url: "https://www.haustechnik.example.de/forum/showthread.php?t=9",
            language: "de",
            title: "Heizung macht nachts Geräusche",
            body,
        },
        &wanted,
    );
}

#[test]
fn vbulletin_5_in_spanish() {
    let shown = [
        ("14/05/2016, 21:05", "2016-05-14T21:05"),
        ("15/05/2016, 08:30", "2016-05-15T08:30"),
        ("15/05/2016, 19:45", "2016-05-15T19:45"),
        ("02/06/2016, 10:02", "2016-06-02T10:02"),
    ];
    let mut posts = String::new();
    let mut wanted = Vec::new();
    for (index, (message, (date, iso))) in SPANISH.messages.iter().zip(shown).enumerate() {
        let node = 5200 + index;
        let profile = format!(
            "https://foro.example.es/member/{}-{}",
            message.user_id,
            message.name.replace(' ', "-")
        );
        let first = if index == 0 { " b-post--first" } else { "" };
        let signature = if index == 0 {
            format!(
                "<div class=\"post-signature restore\">{}</div>",
                SPANISH.signature
            )
        } else {
            String::new()
        };
        posts.push_str(&format!(
            "<li class=\"b-post js-post js-comment-entry__parent{first}\" data-node-id=\"{node}\">\
             <div class=\"l-row l-row__fixed--left\"><div class=\"l-col__large-3 l-col__fixed-3 l-col--right-gutter\">\
             <div class=\"b-userinfo\" data-userid=\"{id}\"><div class=\"b-avatar\"><a href=\"{profile}\"><img src=\"/core/image.php?userid={id}\" alt=\"{name}\"></a></div>\
             <div class=\"author h-text-size--14\"><strong><a href=\"{profile}\">{name}</a></strong></div>\
             <div class=\"usertitle\">{title}</div><ul class=\"b-userinfo__details\">\
             <li><label>Fecha de ingreso:</label> <span>mar 2015</span></li><li><label>Mensajes:</label> <span>{count}</span></li>\
             <li class=\"b-userinfo__rank\"><label>Puntos:</label> <span>{points}</span></li></ul></div></div>\
             <div class=\"b-post__body\"><div class=\"b-post__timestamp\">{date}</div>\
             <div class=\"b-post__count\"><a href=\"https://foro.example.es/jardin/{node}-tomates#post{node}\">#{number}</a></div>\
             <div class=\"js-post__content-wrapper\"><div class=\"js-post__content-text restore h-wordwrap\">{body}</div>{signature}</div>\
             <div class=\"b-post__footer\"><ul class=\"h-left js-post-controls\"><li><a class=\"b-button b-button--icon js-post-control__vote\">Me gusta {likes}</a></li>\
             <li><a class=\"b-button js-post-control__quote\">Citar</a></li></ul></div></div></div></li>",
            number = index + 1,
            name = message.name,
            id = message.user_id,
            title = message.user_title,
            count = message.post_count,
            points = message.post_count * 3,
            likes = index * 2,
            body = message.html_paragraphs(),
        ));
        wanted.push(Wanted::new(profile, iso, &message.text()));
    }
    let body = format!(
        "<h1 class=\"main-title js-main-title\">{subject}</h1>\
         <div class=\"conversation-content-widget\"><ul class=\"conversation-list list-container h-clearfix thread-view\">{posts}</ul></div>\
         <div class=\"b-content-entry-panel\"><h3>Respuesta rápida</h3><form class=\"b-content-entry-panel__form\">\
         <div class=\"js-editor\"><textarea name=\"text\" placeholder=\"Escribe tu respuesta aquí...\"></textarea></div>\
         <button type=\"submit\" class=\"b-button b-button--primary\">Publicar respuesta</button></form></div>",
        subject = SPANISH.subject,
    );
    check(
        EnginePage {
            engine: "vBulletin 5 (Spanish)",
            url: "https://foro.example.es/jardin/5200-tomates-con-hojas-amarillas",
            language: "es",
            title: "Tomates con hojas amarillas - Foro de jardinería",
            body,
        },
        &wanted,
    );
}
