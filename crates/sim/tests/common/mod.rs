//! Helpers shared by the simulator's integration tests.

#![allow(dead_code)]

use trawl_sim::{FamilyName, Scale, Site, SiteConfig, Traps};

/// The fixed seed every fixture uses.
pub const SEED: u64 = 20_260_101;

/// A small site of `family` with every trap on.
pub fn small_site(family: FamilyName) -> Site {
    Site::build(SiteConfig::new(family, SEED, Scale::Small))
}

/// A small site of `family` with the given traps.
pub fn small_site_with(family: FamilyName, traps: Traps) -> Site {
    Site::build(SiteConfig {
        family,
        seed: SEED,
        scale: Scale::Small,
        traps,
    })
}

/// Decodes a served body with the family's charset.
pub fn decode_body(site: &Site, body: &[u8]) -> String {
    let (text, _, had_errors) = site.family().profile().charset.encoding().decode(body);
    assert!(
        !had_errors,
        "{} served bytes its charset cannot read",
        site.config().family.name()
    );
    text.into_owned()
}

/// Every `href="…"` value of a page, `&amp;` unescaped, fragments removed, same-site paths only.
pub fn same_site_links(html: &str) -> Vec<String> {
    let mut links = Vec::new();
    let mut rest = html;
    while let Some(start) = rest.find("href=\"") {
        rest = &rest[start + 6..];
        let Some(end) = rest.find('"') else { break };
        let value = rest[..end].replace("&amp;", "&");
        rest = &rest[end..];
        if value.starts_with('/') && !value.starts_with("//") {
            let path = value.split('#').next().unwrap_or("").to_string();
            if !path.is_empty() {
                links.push(path);
            }
        }
    }
    links
}

/// Removes HTML tags and decodes the few entities templates use, for text checks.
pub fn visible_text(html: &str) -> String {
    let mut text = String::with_capacity(html.len());
    let mut in_tag = false;
    for character in html.chars() {
        match character {
            '<' => in_tag = true,
            '>' => {
                in_tag = false;
                text.push(' ');
            }
            other if !in_tag => text.push(other),
            _ => {}
        }
    }
    let text = text
        .replace("&nbsp;", " ")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
