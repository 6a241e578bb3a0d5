//! Simple Machines Forum 1.1 (English: posts in nested tables, "« Reply #1 on: ... »" headers,
//! "Today at" dates, a quote whose header carries the quoted post's date) and 2.0 (German:
//! the Curve theme's poster column with group, stars, post count and karma, "am:" headers, a
//! quick-reply box with its explanatory note).

use crate::check::{EnginePage, Wanted, check};
use crate::threads::{ENGLISH, GERMAN};

#[test]
fn smf_1_in_english() {
    let shown = [
        (
            "<b>on:</b> May 04, 2016, 09:05:12 PM",
            "2016-05-04T21:05:12",
        ),
        (
            "<b>Reply #1 on:</b> May 05, 2016, 08:30:00 AM",
            "2016-05-05T08:30:00",
        ),
        (
            "<b>Reply #2 on:</b> May 05, 2016, 07:45:31 PM",
            "2016-05-05T19:45:31",
        ),
        (
            "<b>Reply #3 on:</b> <b>Yesterday</b> at 11:02:09 PM",
            "2025-04-01T23:02:09",
        ),
        (
            "<b>Reply #4 on:</b> <b>Today</b> at 06:12:40 AM",
            "2025-04-02T06:12:40",
        ),
    ];
    let mut posts = String::new();
    let mut wanted = Vec::new();
    for (index, (message, (date, iso))) in ENGLISH.messages.iter().zip(shown).enumerate() {
        let msg = 140 + index;
        let (quote_html, quote_text) = if index == 3 {
            (
                "<div class=\"quoteheader\"><a href=\"index.php?topic=3.msg142#msg142\">Quote from: carol88 on May 05, 2016, 07:45:31 PM</a></div>\
                 <div class=\"quote\">Power saving was the culprit for me too.</div>",
                "Quote from: carol88 on May 05, 2016, 07:45:31 PM Power saving was the culprit for me too. ",
            )
        } else {
            ("", "")
        };
        let signature = if index == 0 { ENGLISH.signature } else { "" };
        posts.push_str(&format!(
            "<tr><td style=\"padding: 1px 1px 0 1px;\"><a name=\"msg{msg}\"></a>\
             <table width=\"100%\" cellpadding=\"3\" cellspacing=\"0\" border=\"0\"><tr><td class=\"windowbg{alt}\">\
             <table width=\"100%\" cellpadding=\"5\" cellspacing=\"0\" style=\"table-layout: fixed;\"><tr>\
             <td valign=\"top\" width=\"16%\" rowspan=\"2\" style=\"overflow: hidden;\"><b><a href=\"index.php?action=profile;u={id}\" title=\"View the profile of {name}\">{name}</a></b>\
             <div class=\"smalltext\">{title}<br><img src=\"Themes/default/images/star.gif\" alt=\"*\" border=\"0\"><img src=\"Themes/default/images/star.gif\" alt=\"*\" border=\"0\"><br>\
             <img src=\"Themes/default/images/useroff.gif\" alt=\"Offline\" border=\"0\"><span class=\"smalltext\"> Offline</span><br><br>Posts: {count}<br><br>\
             <a href=\"index.php?action=profile;u={id}\"><img src=\"Themes/default/images/icons/profile_sm.gif\" alt=\"View Profile\" title=\"View Profile\" border=\"0\"></a></div></td>\
             <td valign=\"top\" width=\"85%\" height=\"100%\"><table width=\"100%\" border=\"0\"><tr>\
             <td valign=\"middle\"><a href=\"index.php?topic=3.msg{msg}#msg{msg}\"><img src=\"Themes/default/images/post/xx.gif\" alt=\"\" border=\"0\"></a></td>\
             <td valign=\"middle\"><div style=\"font-weight: bold;\" id=\"subject_{msg}\"><a href=\"index.php?topic=3.msg{msg}#msg{msg}\">Re: {subject}</a></div>\
             <div class=\"smalltext\">&#171; {date} &#187;</div></td>\
             <td align=\"right\" valign=\"bottom\" height=\"20\" style=\"font-size: smaller;\"><a href=\"index.php?action=post;quote={msg};topic=3.0;num_replies=4;sesc=abc123\">\
             <img src=\"Themes/default/images/english/quote.gif\" alt=\"Reply with quote\" border=\"0\"></a></td></tr></table>\
             <hr width=\"100%\" size=\"1\" class=\"hrcolor\"><div class=\"post\">{quote_html}{body}</div></td></tr>\
             <tr><td valign=\"bottom\" class=\"smalltext\" width=\"85%\"><table width=\"100%\" border=\"0\" style=\"table-layout: fixed;\"><tr>\
             <td valign=\"bottom\" class=\"smalltext\" id=\"modified_{msg}\"></td><td align=\"right\" valign=\"bottom\" class=\"smalltext\">\
             <img src=\"Themes/default/images/ip.gif\" alt=\"\" border=\"0\">&nbsp;Logged</td></tr></table>\
             <hr width=\"100%\" size=\"1\" class=\"hrcolor\"><div class=\"signature\">{signature}</div></td></tr></table></td></tr></table></td></tr>",
            alt = if index % 2 == 0 { "" } else { "2" },
            name = message.name,
            id = message.user_id,
            title = message.user_title,
            count = message.post_count,
            subject = ENGLISH.subject,
            body = message.html_with_breaks(),
        ));
        wanted.push(Wanted::new(
            format!("index.php?action=profile;u={}", message.user_id),
            iso,
            &format!("{quote_text}{}", message.text()),
        ));
    }
    let body = format!(
        "<table width=\"100%\" cellpadding=\"3\" cellspacing=\"0\"><tr><td class=\"middletext\">Pages: [<b>1</b>]</td></tr></table>\
         <table border=\"0\" width=\"100%\" cellspacing=\"1\" cellpadding=\"4\" class=\"bordercolor\"><tr class=\"titlebg\">\
         <td valign=\"middle\" align=\"left\" width=\"15%\">Author</td><td valign=\"middle\" align=\"left\" width=\"85%\">Topic: {subject} &nbsp;(Read 311 times)</td></tr></table>\
         <form action=\"index.php?action=quickmod2;topic=3.0\" method=\"post\" name=\"quickModForm\" id=\"quickModForm\" style=\"margin: 0;\">\
         <table cellpadding=\"0\" cellspacing=\"0\" border=\"0\" width=\"100%\" class=\"bordercolor\">{posts}</table></form>",
        subject = ENGLISH.subject,
    );
    check(
        EnginePage {
            engine: "SMF 1.1 (English)",
            url: "https://www.example-smf.org/index.php?topic=3.0",
            language: "en",
            title: "Router drops the connection every evening",
            body,
        },
        &wanted,
    );
}

#[test]
fn smf_2_curve_in_german() {
    let shown = [
        (
            "<strong> am:</strong> 04. Mai 2016, 21:05:12",
            "2016-05-04T21:05:12",
        ),
        (
            "<strong>Antwort #1 am:</strong> 05. Mai 2016, 08:30:00",
            "2016-05-05T08:30:00",
        ),
        (
            "<strong>Antwort #2 am:</strong> 05. Mai 2016, 19:45:31",
            "2016-05-05T19:45:31",
        ),
        (
            "<strong>Antwort #3 am:</strong> <strong>Heute</strong> um 10:12:40",
            "2025-04-02T10:12:40",
        ),
    ];
    let mut posts = String::new();
    let mut wanted = Vec::new();
    for (index, (message, (date, iso))) in GERMAN.messages.iter().zip(shown).enumerate() {
        let msg = 610 + index;
        let (quote_html, quote_text) = if index == 2 {
            (
                "<div class=\"quoteheader\"><div class=\"topslice_quote\"><a href=\"index.php?topic=8.msg611#msg611\">Zitat von: maria_s am 05. Mai 2016, 08:30:00</a></div></div>\
                 <blockquote class=\"bbc_standard_quote\">Das klingt nach Luft im System.<br></blockquote><div class=\"quotefooter\"><div class=\"botslice_quote\"></div></div>",
                "Zitat von: maria_s am 05. Mai 2016, 08:30:00 Das klingt nach Luft im System. ",
            )
        } else {
            ("", "")
        };
        let signature = if index == 0 {
            format!(
                "<div class=\"signature\" id=\"msg_{msg}_signature\">{}</div>",
                GERMAN.signature
            )
        } else {
            String::new()
        };
        posts.push_str(&format!(
            "<div class=\"windowbg{alt}\"><span class=\"topslice\"><span></span></span><div class=\"post_wrapper\">\
             <div class=\"poster\"><h4><img src=\"Themes/default/images/useroff.gif\" alt=\"Offline\"> <a href=\"index.php?action=profile;u={id}\" title=\"Profil anzeigen von {name}\">{name}</a></h4>\
             <ul class=\"reset smalltext\" id=\"msg_{msg}_extra_info\"><li class=\"postgroup\">{title}</li>\
             <li class=\"stars\"><img src=\"Themes/default/images/star.gif\" alt=\"*\"><img src=\"Themes/default/images/star.gif\" alt=\"*\"></li>\
             <li class=\"avatar\"><a href=\"index.php?action=profile;u={id}\"><img class=\"avatar\" src=\"index.php?action=dlattach;attach={id};type=avatar\" alt=\"\"></a></li>\
             <li class=\"postcount\">Beiträge: {count}</li><li class=\"karma\">Karma: +{karma}/-0</li>\
             <li class=\"profile\"><ul><li><a href=\"index.php?action=profile;u={id}\"><img src=\"Themes/default/images/icons/profile_sm.gif\" alt=\"Profil anzeigen\" title=\"Profil anzeigen\"></a></li></ul></li></ul></div>\
             <div class=\"postarea\"><div class=\"flow_hidden\"><div class=\"keyinfo\"><div class=\"messageicon\"><img src=\"Themes/default/images/post/xx.gif\" alt=\"\"></div>\
             <h5 id=\"subject_{msg}\"><a href=\"index.php?topic=8.msg{msg}#msg{msg}\" rel=\"nofollow\">Re: {subject}</a></h5>\
             <div class=\"smalltext\">&#171; {date} &#187;</div><div id=\"msg_{msg}_quick_mod\"></div></div>\
             <ul class=\"reset smalltext quickbuttons\"><li class=\"quote_button\"><a href=\"index.php?action=post;quote={msg};topic=8.0;last_msg=613\">Zitieren</a></li></ul></div>\
             <div class=\"post\"><div class=\"inner\" id=\"msg_{msg}\">{quote_html}{body}</div></div></div>\
             <div class=\"moderatorbar\"><div class=\"smalltext modified\" id=\"modified_{msg}\"></div>\
             <div class=\"smalltext reportlinks\"><a href=\"index.php?action=reporttm;topic=8.0;msg={msg}\">Beitrag melden</a> &nbsp;<img src=\"Themes/default/images/ip.gif\" alt=\"\"> Gespeichert</div>\
             {signature}</div></div><span class=\"botslice\"><span></span></span></div><hr class=\"post_separator\">",
            alt = if index % 2 == 0 { "" } else { "2" },
            name = message.name,
            id = message.user_id,
            title = message.user_title,
            count = message.post_count,
            karma = index * 3 + 1,
            subject = GERMAN.subject,
            body = message.html_with_breaks(),
        ));
        wanted.push(Wanted::new(
            format!("index.php?action=profile;u={}", message.user_id),
            iso,
            &format!("{quote_text}{}", message.text()),
        ));
    }
    let body = format!(
        "<div id=\"forumposts\"><div class=\"cat_bar\"><h3 class=\"catbg\"><span id=\"author\">Autor</span> Thema: {subject} &nbsp;(Gelesen 311 mal)</h3></div>\
         <form action=\"index.php?action=quickmod2;topic=8.0\" method=\"post\" name=\"quickModForm\" id=\"quickModForm\" style=\"margin: 0;\">{posts}</form></div>\
         <a id=\"quickreply\"></a><div class=\"tborder\" id=\"quickreplybox\"><div class=\"cat_bar\"><h3 class=\"catbg\"><span class=\"ie6_header floatleft\">\
         <a href=\"javascript:oQuickReply.swap();\">Schnellantwort</a></span></h3></div><div id=\"quickReplyOptions\"><div class=\"roundframe\">\
         <p class=\"smalltext lefttext\">Mit der Schnellantwort kannst du einen Beitrag schreiben, ohne die Seite zu verlassen. Du kannst wie gewohnt BBCode und Smileys benutzen.</p>\
         <form action=\"index.php?board=2;action=post2\" method=\"post\" name=\"postmodify\" id=\"postmodify\"><textarea cols=\"600\" rows=\"7\" name=\"message\" tabindex=\"1\"></textarea>\
         <input type=\"submit\" name=\"post\" value=\"Schreiben\" class=\"button_submit\"></form></div></div></div>",
        subject = GERMAN.subject,
    );
    check(
        EnginePage {
            engine: "SMF 2.0 (German)",
            url: "https://www.example-smf.de/index.php?topic=8.0",
            language: "de",
            title: "Heizung macht nachts Geräusche",
            body,
        },
        &wanted,
    );
}
