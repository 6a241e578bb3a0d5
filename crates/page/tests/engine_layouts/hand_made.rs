//! Hand-made forums, written without an engine: a table whose header row (name in bold,
//! "schrieb am" and the date) and body row look alike but for their colours, so that only
//! every other row carries a date (German), and a table whose names are `mailto:` links, which
//! lead to no page, so the author is the name (English).

use crate::check::{EnginePage, Wanted, check};

#[test]
fn hand_made_table_of_three_posts() {
    let rows = [
        (
            "Peter",
            "12.03.2011 - 18:40",
            "2011-03-12T18:40",
            "Kann mir jemand sagen, wann der Verein im Sommer trainiert? Ich würde gern einmal vorbeischauen.",
        ),
        (
            "Sabine (Vorstand)",
            "12.03.2011 - 21:02",
            "2011-03-12T21:02",
            "Hallo Peter, im Sommer trainieren wir dienstags und donnerstags ab 18 Uhr auf dem Sportplatz.",
        ),
        (
            "Peter",
            "13.03.2011 - 09:15",
            "2011-03-13T09:15",
            "Danke Sabine, dann komme ich am Dienstag mit meinem Sohn vorbei.",
        ),
    ];
    let mut table = String::new();
    let mut wanted = Vec::new();
    for (name, date, iso, text) in rows {
        table.push_str(&format!(
            "<tr><td bgcolor=\"#DDEEFF\"><font face=\"Arial\" size=\"2\"><b>{name}</b> schrieb am {date}:</font></td></tr>\
             <tr><td bgcolor=\"#FFFFFF\"><font face=\"Arial\" size=\"2\">{text}</font></td></tr>"
        ));
        wanted.push(Wanted::new(name, iso, text));
    }
    let body = format!(
        "<center><table width=\"640\" border=\"0\"><tr><td><a href=\"index.html\">Startseite</a> | <a href=\"termine.html\">Termine</a> | \
         <a href=\"gaestebuch.html\">Gästebuch</a> | <a href=\"forum.html\">Forum</a></td></tr></table>\
         <h2>Forum: Training im Sommer</h2><table width=\"640\" border=\"1\" cellpadding=\"4\" cellspacing=\"0\">{table}</table>\
         <p><a href=\"forum.html\">Zurück zur Übersicht</a> | <a href=\"antworten.php?id=17\">Antworten</a></p>\
         <p><font size=\"1\">Letzte Änderung: 13.03.2011</font></p></center>"
    );
    check(
        EnginePage {
            engine: "hand-made table of three posts",
            url: "http://www.sv-example.de/forum/thema17.html",
            language: "de",
            title: "SV Beispiel - Forum",
            body,
        },
        &wanted,
    );
}

#[test]
fn hand_made_table_of_two_posts_with_links() {
    let rows = [
        (
            "mike",
            "3/14/2004 8:15 PM",
            "2004-03-14T20:15",
            "Does anyone still have the wiring diagram for the 1972 model? Mine got lost when I moved.",
        ),
        (
            "tom_r",
            "3/15/2004 7:02 AM",
            "2004-03-15T07:02",
            "I scanned mine years ago. Send me an email and I will mail you the file tonight.",
        ),
    ];
    let mut table = String::new();
    let mut wanted = Vec::new();
    for (name, date, iso, text) in rows {
        table.push_str(&format!(
            "<tr><td width=\"120\" valign=\"top\" bgcolor=\"#EEEEEE\"><a href=\"mailto:{name}@example.net\">{name}</a><br><small>{date}</small></td>\
             <td valign=\"top\">{text}</td></tr>"
        ));
        // The address is no page to follow: the author is the name.
        wanted.push(Wanted::new(name, iso, text));
    }
    let body = format!(
        "<h3>Wiring diagram 1972?</h3><table width=\"100%\" border=\"1\" cellpadding=\"5\">{table}</table>\
         <hr><form action=\"reply.cgi\" method=\"post\">Name: <input name=\"name\"><br>Message:<br><textarea name=\"text\" rows=\"5\" cols=\"60\"></textarea><br>\
         <input type=\"submit\" value=\"Post reply\"></form>"
    );
    check(
        EnginePage {
            engine: "hand-made table of two posts",
            url: "http://www.example-club.org/board/msg1234.html",
            language: "en",
            title: "Wiring diagram 1972?",
            body,
        },
        &wanted,
    );
}
