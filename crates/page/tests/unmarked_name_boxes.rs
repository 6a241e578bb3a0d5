//! Authors shown as plain text in a user box whose markup says nothing of names (a theme whose
//! classes are words of its own), beside what is not a name but looks as short and varies as
//! much: the labels of a profile card the page keeps hidden (`<dt>Location</dt>` shown only for
//! members who filled it in), a rank line, and the clock of the post time in an element of its
//! own. The box around each name nests its inline elements differently per member (`<b><span
//! style=color>` for one, `<span style=color><b>` for another), as a vBulletin-style theme does
//! for members of different groups. Pages of our own making, in several languages; what the
//! `names` perturbation of `trawl bench extract` made of a development page of this kind.
//!
//! The name is read by structure alone: labels of a definition list of several terms, hidden
//! boxes and texts that read as a time are no names, and a name stands in the box that holds
//! it whatever nests inside. An announcement thread that one member writes almost alone keeps
//! its author: the name box comes before the rank in the user box, and with no two names to
//! compare the first short text of the user box that nothing refuses is the writer's name.

mod common;
use common::authors_read;

fn authors(html: &str) -> Vec<String> {
    authors_read(
        html,
        "https://sciences.example/annonces/1204-nouveautes.html",
        "2024-06-01T12:00:00Z",
    )
}

#[track_caller]
fn check(html: &str, expected: &[&str]) {
    assert_eq!(authors(html), expected, "authors of:\n{html}");
}

/// The words a page of one language shows around the posts.
struct Words {
    joined: &'static str,
    location: &'static str,
    posts: &'static str,
    rank_staff: &'static str,
    rank_member: &'static str,
}

const FRENCH: Words = Words {
    joined: "Date d'inscription",
    location: "Localisation",
    posts: "Messages",
    rank_staff: "coresponsable des forums",
    rank_member: "membre actif",
};

const SPANISH: Words = Words {
    joined: "Fecha de ingreso",
    location: "Ubicación",
    posts: "Mensajes",
    rank_staff: "moderador general",
    rank_member: "miembro activo",
};

const POLISH: Words = Words {
    joined: "Dołączył",
    location: "Skąd",
    posts: "Posty",
    rank_staff: "administrator forum",
    rank_member: "stały bywalec",
};

const JAPANESE: Words = Words {
    joined: "登録日",
    location: "場所",
    posts: "投稿数",
    rank_staff: "管理人",
    rank_member: "常連",
};

/// One post: author, whether the author shows a location, day, clock, text.
type PostSpec = (&'static str, bool, &'static str, &'static str, &'static str);

/// A thread page whose posts show, in order: the date with the clock in an inner element, the
/// post number, the user box (name box, rank, hidden profile card), the message.
fn thread(words: &Words, posts: &[PostSpec]) -> String {
    let body: String = posts
        .iter()
        .enumerate()
        .map(|(index, (author, located, day, clock, text))| {
            // Staff members' names are red with the bold inside the colour, members' blue
            // with the colour inside the bold.
            let staff = index % 3 == 0 || *author == posts[0].0;
            let name = if staff {
                format!("<b><span style=\"color:#c00\">{author}</span></b>")
            } else {
                format!("<span style=\"color:#36c\"><b>{author}</b></span>")
            };
            let rank = if staff {
                words.rank_staff
            } else {
                words.rank_member
            };
            let location = if *located {
                format!("<dt>{}</dt><dd>Lyon</dd>", words.location)
            } else {
                String::new()
            };
            format!(
                "<li class=\"qo\" id=\"qo_{id}\"><div class=\"ze\"><span class=\"wi\">\
                 <span class=\"wa\">{day},&nbsp;<span class=\"wu\">{clock}</span></span></span>\
                 <span class=\"ny\">#{number}</span></div>\
                 <div class=\"fa\"><div class=\"ro\"><div class=\"ru_c\">\
                 <span class=\"ru\" style=\"font-size:14px\">{name}</span></div>\
                 <span class=\"ti\"><b>{rank}</b></span><br>\
                 <div class=\"ve\"><div id=\"ve_{id}\" class=\"vo\" style=\"display:none\">\
                 <dl class=\"ro_x\"><dt>{joined}</dt><dd>2003</dd>{location}\
                 <dt>{posts_label}</dt><dd>{count}</dd></dl></div></div></div>\
                 <div class=\"bo\"><h2 class=\"he\">Re : Nouveautés</h2>\
                 <div class=\"co\"><blockquote class=\"me\">{text}</blockquote></div></div></div>\
                 <hr></li>",
                id = 5100 + index,
                number = index + 1,
                joined = words.joined,
                posts_label = words.posts,
                count = 120 + 7 * author.len(),
            )
        })
        .collect();
    format!(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Nouveautés</title></head>\
         <body><div class=\"na\"><a href=\"/\">Accueil</a> <a href=\"/recherche\">Recherche</a>\
         </div><h1>Nouveautés</h1><ol class=\"ki\">{body}</ol>\
         <div class=\"pi\"><a href=\"/regles\">Règles</a></div></body></html>"
    )
}

const TWO_MEMBERS: [PostSpec; 5] = [
    (
        "Sciencia",
        true,
        "29/07/2004",
        "19h46",
        "Le forum accepte désormais les formules écrites en LaTeX entre balises.",
    ),
    (
        "Sciencia",
        true,
        "04/02/2005",
        "12h25",
        "Le module a été mis à jour aujourd'hui, le rendu est plus net.",
    ),
    (
        "Sciencia",
        true,
        "11/05/2007",
        "07h49",
        "Depuis la nouvelle version, les fractions s'affichent enfin correctement.",
    ),
    (
        "Lupar",
        false,
        "13/02/2015",
        "16h40",
        "Les intégrales restent mal placées par rapport aux bornes, hélas.",
    ),
    (
        "Lupar",
        false,
        "08/12/2015",
        "08h08",
        "De temps en temps une formule ne s'affiche pas et il faut recharger.",
    ),
];

#[test]
fn names_in_unmarked_boxes_are_read_beside_hidden_labels_ranks_and_clocks() {
    for words in [&FRENCH, &SPANISH, &POLISH, &JAPANESE] {
        check(
            &thread(words, &TWO_MEMBERS),
            &["Sciencia", "Sciencia", "Sciencia", "Lupar", "Lupar"],
        );
    }
}

/// An announcement thread's posts: day, clock, text.
const ANNOUNCEMENTS: [(&str, &str, &str); 8] = [
    (
        "10/05/2006",
        "13h16",
        "Bienvenue aux deux nouveaux modérateurs de la rubrique environnement.",
    ),
    (
        "08/07/2006",
        "07h48",
        "Un nouveau modérateur rejoint le forum des étudiants cette semaine.",
    ),
    (
        "06/11/2006",
        "12h13",
        "L'équipe de modération accueille un renfort pour l'électronique.",
    ),
    (
        "28/02/2007",
        "13h20",
        "Cette semaine l'équipe de modération s'est encore agrandie.",
    ),
    (
        "06/02/2008",
        "17h13",
        "Nous accueillons avec plaisir une nouvelle modératrice en biologie.",
    ),
    (
        "11/02/2008",
        "16h32",
        "L'équipe santé du forum se renforce avec une arrivée attendue.",
    ),
    (
        "24/02/2008",
        "18h48",
        "Félicitations pour cette nomination, bon courage à toi !",
    ),
    (
        "09/04/2008",
        "13h44",
        "Deux nouveaux membres rejoignent l'équipe de modération.",
    ),
];

/// The announcement thread with the post at `other_writer` (if any) written by another member.
fn announcements(other_writer: Option<usize>) -> (Vec<PostSpec>, Vec<&'static str>) {
    ANNOUNCEMENTS
        .iter()
        .enumerate()
        .map(|(index, (day, clock, text))| {
            let author = if Some(index) == other_writer {
                "mh34"
            } else {
                "Yoyo"
            };
            ((author, index % 2 == 0, *day, *clock, *text), author)
        })
        .unzip()
}

#[test]
fn an_announcement_thread_written_by_one_member_keeps_its_author() {
    for other_writer in [None, Some(6)] {
        let (posts, expected) = announcements(other_writer);
        for words in [&FRENCH, &SPANISH, &POLISH, &JAPANESE] {
            check(&thread(words, &posts), &expected);
        }
    }
}
