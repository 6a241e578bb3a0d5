//! phpBB 2 (subSilver, in German: a post over three table rows, the name in bold without a
//! link, the signature after the conventional underscores) and phpBB 3.0 (prosilver, in French:
//! the date in words after "par NAME »", join dates in the profile column, a quick-reply form).

use crate::check::{EnginePage, Wanted, check};
use crate::threads::{FRENCH, GERMAN};

#[test]
fn phpbb_2_subsilver_in_german() {
    let shown = [
        ("04.05.2016, 21:05", "2016-05-04T21:05"),
        ("05.05.2016, 08:30", "2016-05-05T08:30"),
        ("05.05.2016, 19:45", "2016-05-05T19:45"),
        ("14.05.2016, 10:02", "2016-05-14T10:02"),
    ];
    let mut rows = String::new();
    let mut wanted = Vec::new();
    for (index, (message, (date, iso))) in GERMAN.messages.iter().zip(shown).enumerate() {
        let post_id = 500 + index;
        let row = if index % 2 == 0 { "row1" } else { "row2" };
        let (quote_html, quote_text) = if index == 3 {
            (
                "<table width=\"90%\" cellspacing=\"1\" cellpadding=\"3\" border=\"0\" align=\"center\">\
                 <tr><td><span class=\"genmed\"><b>maria_s hat folgendes geschrieben:</b></span></td></tr>\
                 <tr><td class=\"quote\">Hast du die Heizkörper schon einmal entlüftet?</td></tr></table>",
                "maria_s hat folgendes geschrieben: Hast du die Heizkörper schon einmal entlüftet? ",
            )
        } else {
            ("", "")
        };
        let signature = if index == 0 {
            format!("<br>_________________<br>{}", GERMAN.signature)
        } else {
            String::new()
        };
        rows.push_str(&format!(
            "<tr><td width=\"150\" align=\"left\" valign=\"top\" class=\"{row}\"><span class=\"name\"><a name=\"{post_id}\"></a><b>{name}</b></span><br>\
             <span class=\"postdetails\">{title}<br><img src=\"templates/subSilver/images/lang_german/rank.gif\" alt=\"{title}\"><br><br>\
             Anmeldungsdatum: 12.01.2015<br>Beiträge: {count}<br>Wohnort: Kempten</span><br></td>\
             <td class=\"{row}\" width=\"100%\" height=\"28\" valign=\"top\"><table width=\"100%\" border=\"0\" cellspacing=\"0\" cellpadding=\"0\">\
             <tr><td width=\"100%\"><a href=\"viewtopic.php?p={post_id}#{post_id}\"><img src=\"icon_minipost.gif\" width=\"12\" height=\"9\" alt=\"Beitrag\" border=\"0\"></a>\
             <span class=\"postdetails\">Verfasst am: {date}<span class=\"gen\">&nbsp;</span>&nbsp; &nbsp;Titel: Re: {subject}</span></td>\
             <td valign=\"top\" nowrap=\"nowrap\"><a href=\"posting.php?mode=quote&amp;p={post_id}\"><img src=\"icon_quote.gif\" alt=\"Antworten mit Zitat\" border=\"0\"></a></td></tr>\
             <tr><td colspan=\"2\"><hr></td></tr>\
             <tr><td colspan=\"2\"><span class=\"postbody\">{quote_html}{body}{signature}</span><span class=\"gensmall\"></span></td></tr></table></td></tr>\
             <tr><td class=\"{row}\" width=\"150\" align=\"left\" valign=\"middle\"><span class=\"nav\"><a href=\"#top\" class=\"nav\">Nach oben</a></span></td>\
             <td class=\"{row}\" width=\"100%\" height=\"28\" valign=\"bottom\" nowrap=\"nowrap\"><a href=\"profile.php?mode=viewprofile&amp;u={id}\">\
             <img src=\"icon_profile.gif\" alt=\"Benutzer-Profile anzeigen\" border=\"0\"></a> <a href=\"privmsg.php?mode=post&amp;u={id}\">\
             <img src=\"icon_pm.gif\" alt=\"Private Nachricht senden\" border=\"0\"></a></td></tr>\
             <tr><td class=\"spaceRow\" colspan=\"2\" height=\"1\"><img src=\"spacer.gif\" alt=\"\" width=\"1\" height=\"1\"></td></tr>",
            name = message.name,
            title = message.user_title,
            count = message.post_count,
            subject = GERMAN.subject,
            body = message.html_with_breaks(),
            id = message.user_id,
        ));
        wanted.push(Wanted::new(
            message.name,
            iso,
            &format!("{quote_text}{}", message.text()),
        ));
    }
    let body = format!(
        "<table width=\"100%\" cellspacing=\"2\" cellpadding=\"2\" border=\"0\"><tr><td align=\"left\" valign=\"bottom\" colspan=\"2\">\
         <a class=\"maintitle\" href=\"viewtopic.php?t=42\">{subject}</a><br></td></tr></table>\
         <table class=\"forumline\" width=\"100%\" cellspacing=\"1\" cellpadding=\"3\" border=\"0\">\
         <tr><th class=\"thLeft\" width=\"150\" height=\"26\" nowrap=\"nowrap\">Autor</th><th class=\"thRight\" nowrap=\"nowrap\">Nachricht</th></tr>\
         {rows}<tr align=\"center\"><td class=\"catBottom\" colspan=\"2\" height=\"28\"><form method=\"post\" action=\"viewtopic.php?t=42\">\
         <span class=\"gensmall\">Beiträge der letzten Zeit anzeigen: <select name=\"postdays\"><option value=\"0\">Alle Beiträge</option></select>\
         <input type=\"submit\" value=\"Los\" class=\"liteoption\" name=\"submit\"></span></form></td></tr></table>\
         <table width=\"100%\" cellspacing=\"2\" border=\"0\" align=\"center\"><tr><td align=\"right\" valign=\"top\" nowrap=\"nowrap\">\
         <span class=\"gensmall\">Alle Zeiten sind GMT + 2 Stunden</span></td></tr></table>",
        subject = GERMAN.subject,
    );
    check(
        EnginePage {
            engine: "phpBB 2 (German)",
            url: "http://forum.example.de/viewtopic.php?t=42",
            language: "de",
            title: "Heizung macht nachts Geräusche :: Haustechnik-Forum",
            body,
        },
        &wanted,
    );
}

#[test]
fn phpbb_3_prosilver_in_french() {
    let shown = [
        ("mer. 4 mai 2016 21:05", "2016-05-04T21:05"),
        ("jeu. 5 mai 2016 08:30", "2016-05-05T08:30"),
        ("jeu. 5 mai 2016 19:45", "2016-05-05T19:45"),
        ("sam. 14 mai 2016 10:02", "2016-05-14T10:02"),
    ];
    let mut posts = String::new();
    let mut wanted = Vec::new();
    for (index, (message, (date, iso))) in FRENCH.messages.iter().zip(shown).enumerate() {
        let post_id = 9100 + index;
        let profile = format!(
            "./memberlist.php?mode=viewprofile&amp;u={}",
            message.user_id
        );
        let (quote_html, quote_text) = if index == 2 {
            (
                "<blockquote><div><cite>jp_roux a écrit :</cite>Rangez-la au chaud la nuit.</div></blockquote>",
                "jp_roux a écrit : Rangez-la au chaud la nuit. ",
            )
        } else {
            ("", "")
        };
        let signature = if index == 0 {
            format!(
                "<div id=\"sig{post_id}\" class=\"signature\">{}</div>",
                FRENCH.signature
            )
        } else {
            String::new()
        };
        posts.push_str(&format!(
            "<div id=\"p{post_id}\" class=\"post bg{bg}\"><div class=\"inner\"><span class=\"corners-top\"><span></span></span>\
             <div class=\"postbody\"><ul class=\"profile-icons\"><li class=\"quote-icon\"><a href=\"./posting.php?mode=quote&amp;f=3&amp;p={post_id}\" title=\"Répondre en citant le message\"><span>Répondre en citant le message</span></a></li></ul>\
             <h3 class=\"first\"><a href=\"#p{post_id}\">{subject}</a></h3>\
             <p class=\"author\"><a href=\"./viewtopic.php?p={post_id}#p{post_id}\"><img src=\"./styles/prosilver/imageset/icon_post_target.gif\" width=\"11\" height=\"9\" alt=\"Message\" title=\"Message\"></a>\
             par <strong><a href=\"{profile}\">{name}</a></strong> &raquo; {date} </p>\
             <div class=\"content\">{quote_html}{body}</div>{signature}</div>\
             <dl class=\"postprofile\" id=\"profile{post_id}\"><dt><a href=\"{profile}\"><img src=\"./download/file.php?avatar={id}.png\" width=\"90\" height=\"90\" alt=\"Avatar de l’utilisateur\"></a><br>\
             <a href=\"{profile}\">{name}</a></dt><dd>{title}</dd><dd>&nbsp;</dd>\
             <dd><strong>Messages :</strong> {count}</dd><dd><strong>Inscription :</strong> mar. 13 janv. 2015 10:12</dd>\
             <dd><strong>Localisation :</strong> Lyon</dd></dl>\
             <div class=\"back2top\"><a href=\"#wrap\" class=\"top\" title=\"Haut\">Haut</a></div>\
             <span class=\"corners-bottom\"><span></span></span></div></div><hr class=\"divider\">",
            bg = 1 + index % 2,
            subject = FRENCH.subject,
            name = message.name,
            title = message.user_title,
            count = message.post_count,
            id = message.user_id,
            body = message.html_with_breaks(),
        ));
        wanted.push(Wanted::new(
            format!("./memberlist.php?mode=viewprofile&u={}", message.user_id),
            iso,
            &format!("{quote_text}{}", message.text()),
        ));
    }
    let body = format!(
        "<h2><a href=\"./viewtopic.php?f=3&amp;t=77\">{subject}</a></h2>\
         <div class=\"topic-actions\"><div class=\"buttons\"><div class=\"reply-icon\"><a href=\"./posting.php?mode=reply&amp;f=3&amp;t=77\" title=\"Répondre\"><span></span>Répondre</a></div></div>\
         <div class=\"pagination\">4 messages &bull; Page <strong>1</strong> sur <strong>1</strong></div></div>\
         {posts}\
         <form method=\"post\" action=\"./posting.php?mode=reply&amp;f=3&amp;t=77\" id=\"qr_postform\"><div class=\"panel\"><div class=\"inner\">\
         <h2>Réponse rapide</h2><fieldset class=\"fields1\"><dl style=\"clear: left;\"><dt><label for=\"subject\">Sujet :</label></dt>\
         <dd><input type=\"text\" name=\"subject\" id=\"subject\" size=\"45\" maxlength=\"124\" value=\"Re: {subject}\" class=\"inputbox autowidth\"></dd></dl>\
         <div id=\"message-box\"><textarea style=\"height: 9em;\" name=\"message\" rows=\"7\" cols=\"76\" class=\"inputbox\"></textarea></div></fieldset>\
         <fieldset class=\"submit-buttons\"><input type=\"submit\" name=\"preview\" value=\"Aperçu\" class=\"button1\">&nbsp;\
         <input type=\"submit\" name=\"post\" value=\"Envoyer\" class=\"button1\"></fieldset></div></div></form>\
         <h3>Qui est en ligne</h3><p>Utilisateurs parcourant ce forum : Aucun utilisateur enregistré et 2 invités</p>\
         <p>Heures au format UTC + 2 heures</p>",
        subject = FRENCH.subject,
    );
    check(
        EnginePage {
            engine: "phpBB 3.0 (French)",
            url: "https://forum.example.fr/viewtopic.php?f=3&t=77",
            language: "fr",
            title: "Vélo électrique : autonomie en hiver - Forum Vélotaf",
            body,
        },
        &wanted,
    );
}
