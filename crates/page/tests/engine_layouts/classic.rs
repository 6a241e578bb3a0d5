//! Classic engines of the 2000s: FluxBB (French: "Aujourd'hui" and ISO-like dates, user titles,
//! join dates, signatures after a rule), YaBB (English: a post over two table rows, names as
//! bold text, "05/04/16 at 21:05:12", a quote whose header carries a date), UBB.threads
//! (Spanish: a post over four table rows: subject, poster and date, body, buttons; names not
//! links; a footer naming the forum's zone), Phorum 5 (English: the profile link inside an
//! author box, a row of Reply and Quote buttons inside the message's element, a meridiem glued
//! to the minutes, a reply form) and Snitz Forums 2000 (English: one table row per post with the
//! author cell beside a nested table of header and message, rows coloured by turns, "Posted -
//! 05/04/2016 : 21:05:12" with the clock joined by a colon, the signature after a rule).

use crate::check::{EnginePage, Wanted, check};
use crate::threads::{ENGLISH, FRENCH, SPANISH};

#[test]
fn fluxbb_in_french() {
    let shown = [
        ("2016-05-04 21:05:12", "2016-05-04T21:05:12"),
        ("2016-05-05 08:30:00", "2016-05-05T08:30:00"),
        ("Hier 19:45:31", "2025-04-01T19:45:31"),
        ("Aujourd'hui 10:02:09", "2025-04-02T10:02:09"),
    ];
    let mut posts = String::new();
    let mut wanted = Vec::new();
    for (index, (message, (date, iso))) in FRENCH.messages.iter().zip(shown).enumerate() {
        let pid = 1500 + index;
        let (quote_html, quote_text) = if index == 1 {
            (
                "<div class=\"quotebox\"><cite>Camille a écrit :</cite><blockquote><div><p>Est-ce normal ou la batterie est-elle en train de mourir ?</p></div></blockquote></div>",
                "Camille a écrit : Est-ce normal ou la batterie est-elle en train de mourir ? ",
            )
        } else {
            ("", "")
        };
        let signature = if index == 0 {
            format!(
                "<div class=\"postsignature postmsg\"><hr><p>{}</p></div>",
                FRENCH.signature
            )
        } else {
            String::new()
        };
        posts.push_str(&format!(
            "<div id=\"p{pid}\" class=\"blockpost {parity}{first}\"><h2><span><span class=\"conr\">#{number}</span> <a href=\"viewtopic.php?pid={pid}#p{pid}\">{date}</a></span></h2>\
             <div class=\"box\"><div class=\"inbox\"><div class=\"postbody\"><div class=\"postleft\"><dl>\
             <dt><strong><a href=\"profile.php?id={id}\">{name}</a></strong></dt><dd class=\"usertitle\"><strong>{title}</strong></dd>\
             <dd class=\"postavatar\"><img src=\"img/avatars/{id}.png\" width=\"60\" height=\"60\" alt=\"\"></dd>\
             <dd><span>Lieu : Grenoble</span></dd><dd><span>Inscription : 2015-01-12</span></dd><dd><span>Messages : {count}</span></dd></dl></div>\
             <div class=\"postright\"><h3>Re: {subject}</h3><div class=\"postmsg\">{quote_html}{body}</div>{signature}</div></div></div>\
             <div class=\"inbox\"><div class=\"postfoot clearb\"><div class=\"postfootleft\"><p><span>Hors ligne</span></p></div>\
             <div class=\"postfootright\"><ul><li class=\"postreport\"><span><a href=\"misc.php?report={pid}\">Signaler</a></span></li>\
             <li class=\"postquote\"><span><a href=\"post.php?tid=21&amp;qid={pid}\">Citer</a></span></li></ul></div></div></div></div></div>",
            parity = if index % 2 == 0 { "roweven" } else { "rowodd" },
            first = if index == 0 { " firstpost blockpost1" } else { "" },
            number = index + 1,
            name = message.name,
            id = message.user_id,
            title = message.user_title,
            count = message.post_count,
            subject = FRENCH.subject,
            body = message.html_paragraphs(),
        ));
        wanted.push(Wanted::new(
            format!("profile.php?id={}", message.user_id),
            iso,
            &format!("{quote_text}{}", message.text()),
        ));
    }
    let body = format!(
        "<div class=\"linkst\"><div class=\"inbox crumbsplus\"><ul class=\"crumbs\"><li><a href=\"index.php\">Index</a></li>\
         <li><span>»&#160;</span><a href=\"viewforum.php?id=2\">Vélo</a></li><li><span>»&#160;</span><strong><a href=\"viewtopic.php?id=21\">{subject}</a></strong></li></ul></div></div>\
         <div id=\"punviewtopic\" class=\"pun\">{posts}</div>\
         <div id=\"quickpost\" class=\"blockform\"><h2><span>Réponse rapide</span></h2><div class=\"box\"><form id=\"quickpostform\" method=\"post\" action=\"post.php?tid=21\">\
         <div class=\"inform\"><fieldset><legend>Écrivez votre message et envoyez-le</legend><div class=\"infldset txtarea\">\
         <textarea name=\"req_message\" rows=\"7\" cols=\"75\" tabindex=\"1\"></textarea></div></fieldset></div>\
         <p class=\"buttons\"><input type=\"submit\" name=\"submit\" tabindex=\"2\" value=\"Envoyer\" accesskey=\"s\"></p></form></div></div>",
        subject = FRENCH.subject,
    );
    check(
        EnginePage {
            engine: "FluxBB 1.5 (French)",
            url: "https://forum.example.fr/viewtopic.php?id=21",
            language: "fr",
            title: "Vélo électrique : autonomie en hiver / Vélo / Forum",
            body,
        },
        &wanted,
    );
}

#[test]
fn yabb_2_posts_over_two_table_rows() {
    let shown = [
        ("05/04/16 at 21:05:12", "2016-05-04T21:05:12"),
        ("05/05/16 at 08:30:00", "2016-05-05T08:30:00"),
        ("05/14/16 at 19:45:31", "2016-05-14T19:45:31"),
        ("06/02/16 at 10:02:09", "2016-06-02T10:02:09"),
    ];
    let mut rows = String::new();
    let mut wanted = Vec::new();
    for (index, (message, (date, iso))) in ENGLISH.messages.iter().zip(shown).enumerate() {
        let (quote_html, quote_text) = if index == 2 {
            (
                "<div class=\"quote\"><b>Quote from Bob Turner on 05/05/16 at 08:30:00:</b><br>Did you try turning off the power saving mode?</div>",
                "Quote from Bob Turner on 05/05/16 at 08:30:00: Did you try turning off the power saving mode? ",
            )
        } else {
            ("", "")
        };
        let signature = if index == 0 {
            format!(
                "<hr width=\"100%\" size=\"1\" class=\"hr\"><span class=\"small\">{}</span>",
                ENGLISH.signature
            )
        } else {
            String::new()
        };
        rows.push_str(&format!(
            "<tr><td class=\"windowbg{alt}\" valign=\"top\" width=\"140\" rowspan=\"2\"><a name=\"{index}\"></a><b>{name}</b><br>\
             <span class=\"small\">{title}<br><img src=\"Templates/Forum/default/starblue.gif\" border=\"0\" alt=\"*\"><img src=\"Templates/Forum/default/starblue.gif\" border=\"0\" alt=\"*\"><br><br>\
             Offline<br><br><br>Posts: {count}<br></span></td>\
             <td class=\"windowbg{alt}\" valign=\"top\"><table width=\"100%\" border=\"0\"><tr><td align=\"left\"><img src=\"Templates/Forum/default/xx.gif\" alt=\"\"> <b>Re: {subject}</b></td>\
             <td align=\"right\"><span class=\"small\"><b>Reply #{index} -</b> {date}</span></td></tr></table><hr width=\"100%\" size=\"1\" class=\"hr\">\
             <div class=\"message\" style=\"float: left; width: 99%; overflow: auto;\">{quote_html}{body}</div></td></tr>\
             <tr><td class=\"windowbg{alt}\" valign=\"bottom\"><span class=\"small\"><img src=\"Templates/Forum/default/ip.gif\" alt=\"\"> Logged</span>{signature}\
             <div style=\"float: right;\"><a href=\"YaBB.pl?board=net;action=post;num=1462388712;quote={index};title=PostReply\">Quote</a></div></td></tr>",
            alt = if index % 2 == 0 { "" } else { "2" },
            name = message.name,
            title = message.user_title,
            count = message.post_count,
            subject = ENGLISH.subject,
            body = message.html_with_breaks(),
        ));
        wanted.push(Wanted::new(
            message.name,
            iso,
            &format!("{quote_text}{}", message.text()),
        ));
    }
    let body = format!(
        "<table cellpadding=\"4\" cellspacing=\"1\" border=\"0\" width=\"100%\" class=\"bordercolor\"><tr><td class=\"titlebg\" colspan=\"2\">\
         <b>Topic: {subject}</b> (Read 412 times)</td></tr>{rows}</table>\
         <table width=\"100%\"><tr><td class=\"catbg\"><span class=\"small\">Pages: 1</span></td></tr></table>",
        subject = ENGLISH.subject,
    );
    check(
        EnginePage {
            engine: "YaBB 2 (English, names not links)",
            url: "https://www.example-yabb.com/cgi-bin/yabb2/YaBB.pl?num=1462388712",
            language: "en",
            title: "Router drops the connection every evening",
            body,
        },
        &wanted,
    );
}

#[test]
fn ubb_threads_posts_over_four_table_rows_in_spanish() {
    let shown = [
        ("14/05/2016 21:05", "2016-05-14T21:05"),
        ("15/05/2016 08:30", "2016-05-15T08:30"),
        ("15/05/2016 19:45", "2016-05-15T19:45"),
        ("02/06/2016 10:02", "2016-06-02T10:02"),
    ];
    let mut rows = String::new();
    let mut wanted = Vec::new();
    for (index, (message, (date, iso))) in SPANISH.messages.iter().zip(shown).enumerate() {
        let number = 5600 + index;
        let signature = if index == 0 {
            format!("<div class=\"signature\">{}</div>", SPANISH.signature)
        } else {
            String::new()
        };
        rows.push_str(&format!(
            "<tr><td class=\"subjecttable\" colspan=\"2\"><a name=\"Post{number}\"></a><b>Re: {subject}</b> <span class=\"small\">[<a href=\"showflat.php?Number={number}#Post{number}\">Re: {subject}</a>]</span></td></tr>\
             <tr><td class=\"newtable\" valign=\"top\" width=\"20%\"><b>{name}</b><br><span class=\"small\">{title}</span><br><br>\
             <span class=\"small\">Registrado: 12/01/2015<br>Mensajes: {count}<br>Valencia</span></td>\
             <td class=\"newtable\" valign=\"top\" align=\"right\"><span class=\"date\">{date}</span></td></tr>\
             <tr><td class=\"lighttable\" colspan=\"2\"><font class=\"post\">{body}{signature}</font></td></tr>\
             <tr><td class=\"footertable\" colspan=\"2\" align=\"right\"><a href=\"newreply.php?Number={number}\">Responder</a> | <a href=\"newreply.php?Number={number}&amp;what=quote\">Citar</a></td></tr>",
            name = message.name,
            title = message.user_title,
            count = message.post_count,
            subject = SPANISH.subject,
            body = message.html_with_breaks(),
        ));
        wanted.push(Wanted::new(message.name, iso, &message.text()));
    }
    let body = format!(
        "<table width=\"95%\" align=\"center\" class=\"tablesurround\" cellspacing=\"1\" cellpadding=\"1\"><tr><td>\
         <table cellpadding=\"3\" cellspacing=\"1\" width=\"100%\" class=\"tableborders\">{rows}</table></td></tr></table>\
         <table width=\"95%\" align=\"center\"><tr><td class=\"small\">Todas las horas son GMT +2. Ahora son las 14:00.</td></tr></table>",
    );
    check(
        EnginePage {
            engine: "UBB.threads 6 (Spanish, names not links)",
            url: "https://foros.example.es/ubbthreads/showflat.php?Number=5600",
            language: "es",
            title: "Tomates con hojas amarillas - Foros",
            body,
        },
        &wanted,
    );
}

#[test]
fn phorum_5_in_english() {
    let shown = [
        ("May 04, 2016 09:05PM", "2016-05-04T21:05"),
        ("May 05, 2016 08:30AM", "2016-05-05T08:30"),
        ("May 05, 2016 07:45PM", "2016-05-05T19:45"),
        ("June 02, 2016 10:02AM", "2016-06-02T10:02"),
    ];
    let mut posts = String::new();
    let mut wanted = Vec::new();
    for (index, (message, (date, iso))) in ENGLISH.messages.iter().zip(shown).enumerate() {
        let msg = 4400 + index;
        let profile = format!("profile.php?1,{}", message.user_id);
        let signature = if index == 0 {
            format!(
                "<div class=\"message-signature\">-- <br>{}</div>",
                ENGLISH.signature
            )
        } else {
            String::new()
        };
        posts.push_str(&format!(
            "<a name=\"msg-{msg}\"></a><div class=\"message\"><div class=\"generic\"><table border=\"0\" cellspacing=\"0\"><tr>\
             <td width=\"100%\"><div class=\"message-author icon-user\"><a href=\"{profile}\">{name}</a></div>\
             <small><strong><a href=\"read.php?1,4400,{msg}#msg-{msg}\">Re: {subject}</a> </strong><br>{date}</small></td>\
             <td class=\"message-user-info\" nowrap=\"nowrap\"><strong>Registered:</strong> 9 years ago<br><strong>Posts:</strong> {count}</td></tr></table></div>\
             <div class=\"message-body\">{body}{signature}<div class=\"message-options\">\
             <a class=\"icon icon-comment-add\" href=\"read.php?1,4400,{msg}#REPLY\">Reply</a> <a class=\"icon icon-comment-edit\" href=\"read.php?1,4400,{msg},quote=1#REPLY\">Quote</a></div></div></div>",
            name = message.name,
            count = message.post_count,
            subject = ENGLISH.subject,
            body = message.html_with_breaks(),
        ));
        wanted.push(Wanted::new(
            profile.replace("&amp;", "&"),
            iso,
            &message.text(),
        ));
    }
    let body = format!(
        "<div class=\"nav\"><a class=\"icon icon-folder\" href=\"list.php?1\">Message List</a> <a class=\"icon icon-comment-add\" href=\"posting.php?1\">New Topic</a></div>\
         <h1>{subject}</h1>{posts}\
         <a name=\"REPLY\"></a><div class=\"generic\"><form action=\"posting.php\" method=\"post\" id=\"post-form\" name=\"post_form\"><h4>Your Name:</h4><input type=\"text\" name=\"author\" size=\"30\">\
         <h4>Subject:</h4><input type=\"text\" name=\"subject\" size=\"50\" value=\"Re: {subject}\"><textarea name=\"body\" rows=\"15\" cols=\"50\"></textarea>\
         <input type=\"submit\" name=\"finish\" value=\"Post\"></form></div>",
        subject = ENGLISH.subject,
    );
    check(
        EnginePage {
            engine: "Phorum 5 (English)",
            url: "https://www.example-phorum.net/read.php?1,4400",
            language: "en",
            title: "Router drops the connection every evening",
            body,
        },
        &wanted,
    );
}

#[test]
fn snitz_forums_2000_in_english() {
    // Snitz joins the date and the clock with " : " and prints the topic's first message in a
    // row of its own colour above the replies.
    let shown = [
        ("05/04/2016 : 21:05:12", "2016-05-04T21:05:12"),
        ("05/05/2016 : 08:30:00", "2016-05-05T08:30:00"),
        ("05/05/2016 : 19:45:31", "2016-05-05T19:45:31"),
        ("06/02/2016 : 10:02:45", "2016-06-02T10:02:45"),
    ];
    let mut rows = String::new();
    let mut wanted = Vec::new();
    for (index, (message, (date, iso))) in ENGLISH.messages.iter().zip(shown).enumerate() {
        let profile = format!("pop_profile.asp?mode=display&amp;id={}", message.user_id);
        let colour = if index == 0 {
            "#F7F7F7"
        } else if index % 2 == 1 {
            "#FFFFFF"
        } else {
            "#F0F0F0"
        };
        let signature = if index == 0 {
            format!(
                "<hr noshade size=\"1\"><span class=\"spnMessageText\">{}</span>",
                ENGLISH.signature
            )
        } else {
            String::new()
        };
        rows.push_str(&format!(
            "<tr><td bgcolor=\"{colour}\" valign=\"top\" width=\"150\" nowrap><p><b><span class=\"spnMessageText\">\
             <a href=\"{profile}\" title=\"View user's profile\">{name}</a></span></b><br><small>{title}<br>\
             <img src=\"icon_star_blue.gif\" width=\"13\" height=\"12\" border=\"0\"><br><br>Netherlands<br>{count} Posts</small></p></td>\
             <td bgcolor=\"{colour}\" width=\"100%\" height=\"100%\" valign=\"top\"><table width=\"100%\" height=\"100%\" border=\"0\" cellspacing=\"0\" cellpadding=\"0\"><tr>\
             <td valign=\"top\"><img src=\"icon_posticon.gif\" width=\"15\" height=\"15\" border=\"0\" hspace=\"3\"><small>Posted&nbsp;-&nbsp;{date}</small>\
             &nbsp;&nbsp;<a href=\"post.asp?method=ReplyQuote&amp;REPLY_ID={reply}&amp;TOPIC_ID=812&amp;FORUM_ID=3\"><img src=\"icon_reply_topic.gif\" alt=\"Reply with Quote\" title=\"Reply with Quote\" border=\"0\"></a>\
             <hr noshade size=\"1\"></td></tr><tr><td valign=\"top\" height=\"100%\"><span class=\"spnMessageText\" id=\"msg\">{body}</span>{signature}</td></tr></table></td></tr>",
            name = message.name,
            title = message.user_title,
            count = message.post_count,
            reply = 3300 + index,
            body = message.html_with_breaks(),
        ));
        wanted.push(Wanted::new(
            profile.replace("&amp;", "&"),
            iso,
            &message.text(),
        ));
    }
    let body = format!(
        "<table border=\"0\" width=\"100%\"><tr><td width=\"33%\" align=\"left\" nowrap><font face=\"Verdana\" size=\"2\">\
         <img src=\"icon_folder_open.gif\" border=\"0\">&nbsp;<a href=\"default.asp\">All Forums</a><br>\
         <img src=\"icon_bar.gif\" border=\"0\"><img src=\"icon_folder_open.gif\" border=\"0\">&nbsp;<a href=\"default.asp#CatID1\">Networking</a><br>\
         <img src=\"icon_blank.gif\" border=\"0\"><img src=\"icon_bar.gif\" border=\"0\"><img src=\"icon_folder_open_topic.gif\" border=\"0\">&nbsp;{subject}</font></td></tr></table>\
         <table border=\"0\" width=\"100%\" cellspacing=\"0\" cellpadding=\"0\" align=\"center\"><tr><td bgcolor=\"#000000\">\
         <table border=\"0\" width=\"100%\" cellspacing=\"1\" cellpadding=\"4\"><tr><td align=\"center\" bgcolor=\"#0066CC\" width=\"100\" nowrap><b><font color=\"#FFFFFF\">Author</font></b></td>\
         <td align=\"center\" bgcolor=\"#0066CC\" width=\"100%\"><b><font color=\"#FFFFFF\">Topic</font></b></td></tr>{rows}</table></td></tr></table>\
         <table width=\"100%\"><tr><td><a href=\"post.asp?method=Reply&amp;TOPIC_ID=812&amp;FORUM_ID=3\"><img src=\"icon_reply_topic.gif\" border=\"0\"> Reply to Topic</a></td>\
         <td align=\"right\"><font size=\"1\">Snitz Forums 2000</font></td></tr></table>",
        subject = ENGLISH.subject,
    );
    check(
        EnginePage {
            engine: "Snitz Forums 2000 (English)",
            url: "http://www.example-lan.org/forum/topic.asp?TOPIC_ID=812",
            language: "en",
            title: "Example LAN Forums - Router drops the connection every evening",
            body,
        },
        &wanted,
    );
}
