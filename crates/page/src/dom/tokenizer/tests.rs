//! Tests of the tokenizer: fixed cases, random markup, real and mangled pages and every
//! simulated family, each compared with html5ever's tokenizer (`compare`).

use super::compare::{Sent, TokenizerCheck, our_tokens};
use crate::test_stream::Stream;

/// `html` is read by this tokenizer (not refused) and gives html5ever's tokens.
fn check(html: &str) {
    match super::compare::check(html) {
        TokenizerCheck::Agrees => {}
        TokenizerCheck::Refused(reason) => panic!("{html:?} refused: {reason}"),
        TokenizerCheck::Differs(difference) => panic!("{html:?}: {difference}"),
    }
}

/// Compares the tokenizers on `html` (named `label` in failures); a difference, or a refusal
/// when `must_read`, goes to `wrong`. Returns whether this tokenizer read the page.
fn tally(label: &str, html: &str, must_read: bool, wrong: &mut Vec<String>) -> bool {
    match super::compare::check(html) {
        TokenizerCheck::Agrees => return true,
        TokenizerCheck::Refused(reason) if must_read => {
            wrong.push(format!("{label}: refused ({reason})"))
        }
        TokenizerCheck::Refused(_) => {}
        TokenizerCheck::Differs(difference) => wrong.push(format!("{label}: {difference}")),
    }
    false
}

fn assert_none_wrong(wrong: &[String]) {
    assert!(
        wrong.is_empty(),
        "{} differences:\n{}",
        wrong.len(),
        wrong[..wrong.len().min(12)].join("\n")
    );
}

/// `html` is refused for `reason`.
fn check_refused(html: &str, reason: &str) {
    match our_tokens(html) {
        Ok(_) => panic!("{html:?} was read, expected it refused for {reason}"),
        Err(unusual) => assert_eq!(unusual.0, reason, "{html:?}"),
    }
}

#[test]
fn text_tags_and_attributes() {
    for html in [
        "",
        "plain text",
        "<p>one<p>two",
        "<DIV CLASS=Post ID='a'>x</DIV>",
        "<a href=\"/t?id=1&amp;p=2\" title=x>link</a>",
        "<a href=/t?id=1&copy=2&amp=3&lt;b>x</a>",
        "<a b c=1 d = \"2\" e= '3' f =4>x</a>",
        "<a x=1 x=2 X=3 y>dup</a>",
        "<a =x>eq</a>",
        "<a/b/c d/ >x</a>",
        "<br/><img src=a.png/><input disabled/>",
        "<a\thref=\"x\"\n\x0Ctitle='y'\n>t</a>",
        "<a href=x\ttitle=y>t</a>",
        "<p a=\"1\"b='2'c=3>x",
        "<p a=>x",
        "<p a= >x",
        "a < b, 3<4, <3 <- &",
        "</p></ p></>x</3>",
        "<a<b>x</a<b>",
        "<p title=\"é&eacute;\">déjà vu &hellip; &#8217;s &#x2014; &#150;</p>",
        "&notin; &notit; &amp &ampx &#; &#x; &# &nosuch; &AMP; &Amp;",
        "<pre>\nfirst line</pre><pre>&#10;x</pre><textarea>\nt</textarea>",
        "<table><tr><td>a<td>b</table>",
        "<b><i>x</b>y</i>",
        "<html><head><title>T</title></head><body>b</body></html>",
        "<math><mi>x</mi></math><svg><path d=M0/></svg>",
        "line\r\nbreak\rhere<p class=\"a\r\nb\">",
        "\u{feff}<p>bom",
        "<p>\u{7f}\u{1}controls",
    ] {
        check(html);
    }
}

#[test]
fn comments_doctypes_and_bogus_comments() {
    for html in [
        "<!-- a comment --><p>x",
        "<!---->x<!-->y<!--->z",
        "<!-- a --->b<!-- c ---->d",
        "<!-- a --!>b<!-- c --!-->d",
        "<!--[if lt IE 9]><script src=x.js></script><![endif]-->x",
        "<!-- a <! b --> c",
        "<!-- <!-- x -->y",
        "<!--a<!-->b",
        "<!--<!-->b-->c",
        "<!--<!--->b-->c",
        "<!--a<!--!>b-->c",
        "<!--a<<!--b-->c",
        "<!--a--!-->b",
        "<!--a--!x-->b",
        "<!--<!-x-->b",
        "<?xml version=\"1.0\"?><p>x",
        "<!ELEMENT br EMPTY>x",
        "</ 3>x</#>y",
        "<!DOCTYPE html><p>x",
        "<!doctype HTML><p>x",
        "<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Transitional//EN\" \"http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd\"><p>x",
        "<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.01 Transitional//EN\"><table><p>quirks",
        "<!DOCTYPE html PUBLIC '-//W3C//DTD HTML 4.01//EN' 'http://www.w3.org/TR/html4/strict.dtd' ><p>x",
        "<!DOCTYPE html SYSTEM \"about:legacy-compat\"><p>x",
        "<p>x<!DOCTYPE html>y",
    ] {
        check(html);
    }
}

#[test]
fn raw_text_and_scripts() {
    for html in [
        "<title>a &amp; <b>b</b></title>x",
        "<title>a</titles></TITLE >x",
        "<textarea>a</textarea\n>x",
        "<style>p > a { x: '</p>' }</style>x",
        "<style>a</style/>x",
        "<iframe><p>x</iframe>y<xmp><b></xmp><noembed>&amp;</noembed>",
        "<noscript><p>shown</p></noscript>",
        "<script>if (a < b && c) { d('</div>'); }</script>x",
        "<script><!-- var a = 1; //--></script>x",
        "<script><!-- document.write('</scr' + 'ipt>'); --></script>x",
        "<script><!--></script>x",
        "<script><!--x--></script>y",
        "<script><!-- a <b> --> c</script>d",
        "<script><!-- </script> -->x",
        "<script><!-- <scriptx> --></script>y",
        "<script><!-- <script>x</script> --></script>y",
        "<script><!-- document.write('<script src=a.js></script>'); --></script>y",
        "<script><!-- <script>a</script>b</script>c",
        "<script><!-- <script/>a-->b</script>c",
        "<script><!-- <SCRIPT>a</SCRIPTx></script>-->b</script>c",
        "<script>a</SCRIPT foo=bar>b",
        "<script>a</script/>b",
        "<script>never closed",
        "<title>never closed &amp;",
    ] {
        check(html);
    }
}

#[test]
fn unusual_shapes_are_refused() {
    check_refused("a\0b", "a NUL byte");
    check_refused("<svg><![CDATA[x]]></svg>", "a CDATA section");
    check_refused("<plaintext>x", "<plaintext>");
    check_refused("<!DOCTYPE>x", "an unusual doctype");
    check_refused("<!DOCTYPE html PUBLIC>x", "an unusual doctype");
    check_refused("<p class=\"x", "the page ends inside an attribute value");
    check_refused("<p", "the page ends inside a tag");
    check_refused("x<", "the page ends after '<'");
    check_refused("<!-- x", "the page ends inside a comment");
}

/// Pieces of markup that reach the tokenizer's less travelled states.
const FRAGMENTS: &[&str] = &[
    "<",
    ">",
    "</",
    "/>",
    "&",
    "&amp",
    "&#",
    "&#x",
    "&#12",
    "&notin",
    ";",
    "=",
    "\"",
    "'",
    "<!--",
    "-->",
    "--!>",
    "<!",
    "<?",
    "<script>",
    "</script>",
    "<style>",
    "</style>",
    "<title>",
    "</title>",
    "<textarea>",
    "<table>",
    "<td>",
    "<p>",
    "</div>",
    " a=b ",
    " x='",
    "\n",
    "\t",
    "-",
    "<!DOCTYPE html>",
    "<b>",
    "<svg>",
    "</svg>",
    "<iframe>",
    "</iframe>",
    "&lt;",
    "é",
    "<a href=",
    "<!-->",
    "<scr",
    "ipt>",
];

/// `html` changed by a few random cuts, splices and insertions of [`FRAGMENTS`].
fn mangle(html: &str, random: &mut Stream) -> String {
    let mut page = html.to_string();
    for _ in 0..1 + random.below(4) {
        let at = boundary(&page, random.below(page.len() + 1));
        match random.below(4) {
            0 => page.insert_str(at, FRAGMENTS[random.below(FRAGMENTS.len())]),
            1 => {
                let end = boundary(&page, at + random.below(64));
                page.replace_range(at..end, "");
            }
            2 => {
                let from = boundary(&page, random.below(page.len() + 1));
                let to = boundary(&page, from + random.below(200));
                let copy = page[from..to].to_string();
                page.insert_str(at, &copy);
            }
            _ => page.truncate(at),
        }
    }
    page
}

fn boundary(page: &str, mut at: usize) -> usize {
    at = at.min(page.len());
    while !page.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// Random strings of [`FRAGMENTS`] and letters agree with html5ever wherever they are read.
#[test]
fn random_markup_agrees_with_html5ever() {
    let mut random = Stream(0x5eed_1234_abcd_0001);
    let mut read = 0;
    let mut wrong = Vec::new();
    for _ in 0..4000 {
        let mut html = String::new();
        for _ in 0..random.below(24) {
            match random.below(3) {
                0 => html.push_str(&"abcxyz "[random.below(7)..]),
                _ => html.push_str(FRAGMENTS[random.below(FRAGMENTS.len())]),
            }
        }
        if tally(&format!("{html:?}"), &html, false, &mut wrong) {
            read += 1;
        }
    }
    assert_none_wrong(&wrong);
    // Most of them must be read, or the comparison says little.
    assert!(read > 2000, "only {read} of 4000 random strings read");
}

fn development_pages() -> Vec<(String, String)> {
    let directory = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/data/web-forum-52-dev"
    );
    let mut pages = Vec::new();
    for entry in std::fs::read_dir(directory).expect("the development pages of WEB-FORUM-52") {
        let path = entry.expect("a directory entry").path();
        if path
            .extension()
            .is_some_and(|extension| extension == "json")
        {
            let json: serde_json::Value =
                serde_json::from_slice(&std::fs::read(&path).expect("a readable page"))
                    .expect("a JSON page");
            let html = json["html"].as_str().expect("an html field").to_string();
            pages.push((path.display().to_string(), html));
        }
    }
    pages.sort();
    assert!(pages.len() >= 50, "{} development pages", pages.len());
    pages
}

/// Every real development page is read (none refused) and gives html5ever's tokens, and so do
/// a hundred mangled variants of each.
#[test]
fn real_pages_and_their_mangled_variants_agree_with_html5ever() {
    let mut wrong = Vec::new();
    let mut random = Stream(0x7a4d_0000_0000_0052);
    let mut mangled_read = 0;
    let mut mangled = 0;
    for (name, html) in development_pages() {
        tally(&name, &html, true, &mut wrong);
        for _ in 0..100 {
            let page = mangle(&html, &mut random);
            mangled += 1;
            if tally(&format!("{name} mangled"), &page, false, &mut wrong) {
                mangled_read += 1;
            }
        }
    }
    assert_none_wrong(&wrong);
    assert!(
        mangled_read * 2 > mangled,
        "only {mangled_read} of {mangled} mangled pages read"
    );
}

/// Every page kind of every simulated forum family is read and gives html5ever's tokens.
#[test]
fn simulated_forums_agree_with_html5ever() {
    use trawl_sim::{Address, FamilyName, Route, Scale, Site, SiteConfig};
    let mut wrong = Vec::new();
    for family in FamilyName::ALL {
        let site = Site::build(SiteConfig::new(family, 3, Scale::Small));
        let url = |route: Route| site.url_of(&Address::canonical(route));
        let board = site.history().board(1).expect("a first board");
        let mut paths = vec![url(Route::Portal), url(Route::Board { board: 1, page: 1 })];
        for &thread in board.threads.iter().take(3) {
            paths.push(url(Route::Thread { thread, page: 1 }));
        }
        for path in paths {
            let answer = site.serve(&path, site.history().end, None);
            let page =
                crate::charset::decode_html(&answer.body, answer.header("Content-Type"), None);
            let label = format!("{} {path}", family.name());
            tally(&label, &page.text, true, &mut wrong);
        }
    }
    assert_none_wrong(&wrong);
}

/// Regression: the search for a comment's `--!>` and a double-escaped script's `-->` read the
/// rest of the page once per comment or script, so a large page with many of them took time
/// growing with the square of its size. These pages are read whole, with every comment and
/// script, in one pass over each.
#[test]
fn many_comments_and_double_escaped_scripts_are_read_in_one_pass() {
    let comments = "<!--x-->".repeat(100_000);
    let comments_read = our_tokens(&comments)
        .expect("read")
        .iter()
        .filter(|sent| matches!(sent, Sent::Other(token) if token.starts_with("comment")))
        .count();
    assert_eq!(comments_read, 100_000);

    let scripts = "<script><!-- <script>a</script> b</script>".repeat(20_000);
    let script_ends = our_tokens(&scripts)
        .expect("read")
        .iter()
        .filter(|sent| matches!(sent, Sent::Other(token) if token.starts_with("EndTag script")))
        .count();
    assert_eq!(script_ends, 20_000);
}

/// The names matched without hashing (`common_name`) intern as the same atoms as any other
/// name, in any case, and near misses fall through to the general path.
#[test]
fn common_tag_and_attribute_names_intern_as_html5ever_does() {
    let names = "a i p b u li br ul dd td dt dl tr id h1 h2 h3 h4 h5 ol hr th em div img src rel \
                 alt dir bdi nav span href meta link time type name form role font size body \
                 head html lang class title style value input label table width tbody small \
                 align option script strong header footer button target border height center \
                 article section content colspan onclick itemprop itemtype datetime property \
                 tabindex blockquote aria-hidden q h6 dfn spans hrefs data-id blockquotes";
    for name in names.split_whitespace() {
        for spelled in [name.to_string(), name.to_ascii_uppercase()] {
            assert_eq!(
                super::lowercase_name(&spelled),
                html5ever::LocalName::from(name),
                "{spelled}"
            );
        }
        check(&format!("<p><{name} {name}=\"x\" ID=y>t</{name}></p>"));
    }
}
