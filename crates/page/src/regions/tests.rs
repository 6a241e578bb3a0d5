use super::*;

/// (parent tag, width, record count) of every region holding more than a tenth of the text.
fn summary(html: &str) -> Vec<(String, usize, usize)> {
    let document = Document::parse(html);
    find_regions(&document)
        .into_iter()
        .filter(|region| region.text_share > 0.1)
        .map(|region| {
            (
                document.node(region.parent).tag().to_string(),
                region.width,
                region.records.len(),
            )
        })
        .collect()
}

fn check(html: &str, expected: &[(&str, usize, usize)]) {
    let found = summary(html);
    let expected: Vec<(String, usize, usize)> = expected
        .iter()
        .map(|(tag, width, count)| (tag.to_string(), *width, *count))
        .collect();
    assert_eq!(found, expected, "{html}");
}

fn post(author: &str, text: &str) -> String {
    format!(
        "<div class=\"post bg1\"><div class=\"author\"><a href=\"/u/1\">{author}</a> \
         <span class=\"date\">2025-03-30 22:11</span></div><div class=\"content\">{text}</div></div>"
    )
}

#[test]
fn posts_of_very_different_lengths_are_one_region() {
    let long =
        "word ".repeat(400) + "<blockquote><p>quoted</p><p>more</p></blockquote><pre>code</pre>";
    let html = format!(
        "<body><div id=\"posts\">{}{}{}</div><div class=\"footer\">Footer text here</div></body>",
        post("ann", "Short."),
        post("bob", &long),
        post("cid", "Medium length reply with a <b>bold</b> word.")
    );
    check(&html, &[("div", 1, 3)]);
}

#[test]
fn records_of_two_siblings_are_found() {
    let pair = |text: &str| format!("{}<hr class=\"divider\">", post("ann", text));
    let html = format!(
        "<body><div>{}{}{}{}</div></body>",
        pair("a a a"),
        pair("b b b"),
        pair("c c c"),
        pair("d d d")
    );
    check(&html, &[("div", 2, 4)]);
    let rows = |text: &str| {
        format!(
            "<tr><td><font>Author</font> <b>ann</b></td><td>2025/03/30 22:11</td></tr>\
             <tr><td colspan=2><table><tr><td><font><p>{text}</p><p>x</p></font></td></tr></table></td></tr>"
        )
    };
    let html = format!(
        "<body><table>{}{}{}</table></body>",
        rows("one"),
        rows("two"),
        rows("three")
    );
    check(&html, &[("tbody", 2, 3)]);
}

#[test]
fn table_rows_are_records() {
    let row = |title: &str| {
        format!(
            "<tr class=\"row1\"><td><a href=\"/t/1\">{title}</a></td><td>ann</td><td>12</td><td>2025-03-30</td></tr>"
        )
    };
    let html = format!(
        "<body><table><tr><th>Topic</th><th>By</th><th>Replies</th><th>Last</th></tr>{}{}{}{}</table></body>",
        row("First topic here"),
        row("Second one"),
        row("Third"),
        row("Fourth topic title")
    );
    check(&html, &[("tbody", 1, 4)]);
}

#[test]
fn advertisements_between_posts_do_not_split_the_list() {
    let advert = "<li class=\"advert\"><iframe src=\"https://ads.example.net\"></iframe></li>";
    let item = |n: u32| {
        format!(
            "<li class=\"message\"><div class=\"user\"><a href=\"/u/{n}\">U{n}</a></div>\
             <div class=\"body\">Text of post {n} with words.</div></li>"
        )
    };
    let posts: String = (1..=9)
        .map(|n| {
            if n % 3 == 0 {
                format!("{}{advert}", item(n))
            } else {
                item(n)
            }
        })
        .collect();
    check(&format!("<body><ol>{posts}</ol></body>"), &[("ol", 1, 9)]);
}

#[test]
fn a_page_without_repetition_has_no_region() {
    check(
        "<body><h1>Title</h1><p>Some text that is long enough.</p><form><input></form></body>",
        &[],
    );
    check("", &[]);
}

/// A page of `count` posts by one author, each a word longer than the one before.
fn page_of_posts(count: usize) -> Document {
    let posts: String = (0..count)
        .map(|i| post("ann", &"w ".repeat(i + 1)))
        .collect();
    Document::parse(&format!("<body><div id=\"posts\">{posts}</div></body>"))
}

#[test]
fn pattern_ids_do_not_depend_on_record_count() {
    let page = |count: usize| {
        find_regions(&page_of_posts(count))
            .iter()
            .map(|region| region.pattern)
            .collect::<Vec<_>>()
    };
    assert_eq!(page(3), page(9));
    assert_ne!(page(3), Vec::<PatternId>::new());
}

#[test]
fn a_lone_record_offers_the_pattern_its_repetition_has() {
    let repeated = find_regions(&page_of_posts(4));
    assert_eq!(repeated.len(), 1);
    let lone = page_of_posts(1);
    assert!(find_regions(&lone).is_empty());
    let candidates = single_record_candidates(&lone);
    let matching: Vec<&SingleRecord> = candidates
        .iter()
        .filter(|candidate| candidate.pattern == repeated[0].pattern)
        .collect();
    assert_eq!(matching.len(), 1, "{candidates:?}");
    assert!(matching[0].text_share > 0.5);
}

#[test]
fn links_get_the_same_column_in_every_record() {
    let row = |n: usize| {
        format!(
            "<li><a class=\"title\" href=\"/t/{n}\">T{n}</a> by <a class=\"user\" href=\"/u/{n}\">U</a></li>"
        )
    };
    let html = format!("<body><ul>{}{}{}</ul></body>", row(1), row(2), row(3));
    let document = Document::parse(&html);
    let regions = find_regions(&document);
    let slots = record_slots(&document, &regions);
    let links: Vec<NodeId> = document
        .descendants(ROOT)
        .filter(|&n| document.node(n).is("a"))
        .collect();
    let columns: Vec<ColumnId> = links
        .iter()
        .map(|&link| {
            let slot = slots[link as usize].expect("inside a record");
            assert_eq!(regions[slot.region as usize].records.len(), 3);
            column_of(&document, slot.member, link)
        })
        .collect();
    assert_eq!(columns[0], columns[2]);
    assert_eq!(columns[1], columns[3]);
    assert_ne!(columns[0], columns[1]);
}
