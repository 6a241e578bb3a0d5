//! The page every view is written into, and escaping.

use std::fmt::Write;

/// `text` safe inside HTML text and attribute values: the workspace's one escaping.
pub use trawl_model::escape_html as escape;

/// `text` as one component of a URL's query.
pub fn query_value(text: &str) -> String {
    url::form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

/// The site a view belongs to, for its navigation bar.
#[derive(Debug, Clone, Copy)]
pub struct SiteNav<'a> {
    /// The site's number in the console's URLs.
    pub index: usize,
    /// Its name (portal URL).
    pub name: &'a str,
    /// Whether the store holds other sites (a link back to the picker).
    pub several: bool,
}

/// A whole page: the shared head, the navigation (with its keyboard shortcuts), and `body`.
/// With `refresh_seconds`, the page reloads itself, for a crawl that is running.
pub fn page(
    title: &str,
    site: Option<SiteNav<'_>>,
    refresh_seconds: Option<u32>,
    body: &str,
) -> String {
    let mut out = String::from("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">");
    let _ = write!(out, "<title>{} · trawl</title>", escape(title));
    if let Some(seconds) = refresh_seconds {
        let _ = write!(out, "<meta http-equiv=\"refresh\" content=\"{seconds}\">");
    }
    out.push_str(
        "<meta name=\"viewport\" content=\"width=device-width\">\
         <link rel=\"stylesheet\" href=\"/assets/console.css\">\
         <script src=\"/assets/console.js\" defer></script></head><body><header><nav>",
    );
    match site {
        Some(site) => {
            if site.several {
                out.push_str("<a href=\"/\">sites</a> ");
            }
            let base = format!("/site/{}", site.index);
            for (key, path, words) in [
                ("o", "/", "overview"),
                ("p", "/plan", "plan"),
                ("a", "/audit", "audit"),
                ("t", "/threads", "threads"),
                ("f", "/freshness", "freshness"),
            ] {
                let _ = write!(
                    out,
                    "<a href=\"{base}{path}\" data-key=\"{key}\" accesskey=\"{key}\"><kbd>{key}</kbd> {words}</a> "
                );
            }
            let _ = write!(out, "<span class=\"site\">{}</span>", escape(site.name));
        }
        None => out.push_str("<span class=\"site\">trawl console</span>"),
    }
    out.push_str("</nav></header><main>");
    let _ = write!(out, "<h1>{}</h1>", escape(title));
    out.push_str(body);
    out.push_str("</main></body></html>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_for_html() {
        assert_eq!(escape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
        assert_eq!(
            query_value("http://f.test/?a=1&b=2"),
            "http%3A%2F%2Ff.test%2F%3Fa%3D1%26b%3D2"
        );
    }

    #[test]
    fn a_running_crawl_refreshes_and_a_site_has_its_shortcuts() {
        let site = SiteNav {
            index: 2,
            name: "http://f.test/",
            several: true,
        };
        let shown = page("Overview", Some(site), Some(5), "<p>x</p>");
        assert!(shown.contains("http-equiv=\"refresh\" content=\"5\""));
        assert!(shown.contains("href=\"/site/2/plan\" data-key=\"p\""));
        assert!(shown.contains("<a href=\"/\">sites</a>"));
        let still = page("Overview", None, None, "");
        assert!(!still.contains("refresh"));
    }
}
