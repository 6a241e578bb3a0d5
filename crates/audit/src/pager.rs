//! Pages a pager implies without linking them. A pager shows a window of page numbers around
//! the current page and the last one (`1 2 3 … 17`), so a list's pages and links name a few
//! numbers of one URL template; the numbers between them, at the list's step, are pages too.

use std::collections::BTreeSet;

use foldhash::{HashMap, HashMapExt};

use trawl_learn::spellings::{DIGITS_MARK, shape_and_numbers};

/// Most pages one gap between two known numbers may imply. A list of a million pages is not a
/// forum's; two numbers that far apart are not two pages of one pager.
const MOST_PAGES_BETWEEN: u64 = 10_000;

/// A list's page key: the URL template its pages share and the one number in it that differs
/// from page to page, with the numbers of one of its pages.
struct PageKey {
    shape: String,
    position: usize,
    numbers: Vec<String>,
    /// The smallest page number the URLs show.
    smallest: u64,
}

/// The distinct `urls` (fragments dropped) grouped by their shape with digits taken out, shapes in
/// the order first seen, each with the numbers of its URLs in order.
fn numbers_by_shape(urls: &[&str]) -> (Vec<String>, HashMap<String, Vec<Vec<String>>>) {
    let mut by_shape: HashMap<String, Vec<Vec<String>>> = HashMap::new();
    let mut shape_order: Vec<String> = Vec::new();
    let mut known: BTreeSet<&str> = BTreeSet::new();
    for url in urls {
        let url = url.split('#').next().unwrap_or(url);
        if !known.insert(url) {
            continue;
        }
        let (shape, numbers) = shape_and_numbers(url);
        by_shape
            .entry(shape.clone())
            .or_insert_with(|| {
                shape_order.push(shape);
                Vec::new()
            })
            .push(numbers);
    }
    (shape_order, by_shape)
}

/// The page keys `urls` (a list's pages and pager links) show: per template followed by two
/// URLs or more, the one number that varies, when exactly one does.
fn page_keys(urls: &[&str]) -> Vec<PageKey> {
    let (shape_order, mut by_shape) = numbers_by_shape(urls);
    shape_order
        .into_iter()
        .filter_map(|shape| {
            let members = by_shape.remove(&shape)?;
            if members.len() < 2 {
                return None;
            }
            let varying: Vec<usize> = (0..members[0].len())
                .filter(|&position| {
                    members
                        .iter()
                        .any(|numbers| numbers[position] != members[0][position])
                })
                .collect();
            let [position] = varying[..] else {
                return None;
            };
            let smallest = members
                .iter()
                .map(|numbers| numbers[position].parse::<u64>().unwrap_or(u64::MAX))
                .min()?;
            Some(PageKey {
                shape,
                position,
                numbers: members.into_iter().next()?,
                smallest,
            })
        })
        .collect()
}

/// The `links` (every link of a list's pages) that are pages of the list by their spelling:
/// the template of `urls` (the list's pages and pager links) with only its page number
/// changed. A pager's link the crawler did not take for page flipping (a "4" and a "next"
/// beside the numbers it took) is still a page of the list; a link to another list (another
/// thread, another board) differs in its list's own number too, and a link of another
/// template (a sort order, a post) is not compared at all.
pub fn pages_linked_alike(urls: &[&str], links: &[&str]) -> Vec<AlikePage> {
    let keys = page_keys(urls);
    let known: BTreeSet<&str> = urls.iter().copied().collect();
    let mut alike = Vec::new();
    let mut seen = BTreeSet::new();
    for link in links {
        let link = link.split('#').next().unwrap_or(link);
        if known.contains(link) || !seen.insert(link) {
            continue;
        }
        let (shape, numbers) = shape_and_numbers(link);
        let key =
            keys.iter().find(|key| {
                key.shape == shape
                    && numbers.len() == key.numbers.len()
                    && numbers.iter().zip(&key.numbers).enumerate().all(
                        |(position, (number, kept))| position == key.position || number == kept,
                    )
            });
        if let Some(key) = key {
            let number = numbers[key.position].parse::<u64>().unwrap_or(u64::MAX);
            alike.push(AlikePage {
                url: link.to_string(),
                first_page: number < key.smallest,
            });
        }
    }
    alike
}

/// A link spelled as a page of a list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AlikePage {
    /// The link.
    pub url: String,
    /// Its page number is below every number the list's pages and pager links show: the
    /// list's first page, spelled with the number its usual spelling leaves out (`&start=0`,
    /// `/1.html`).
    pub first_page: bool,
}

/// The URLs of pages of one list that fall between the page numbers of `urls` (the list's
/// pages and the links of its pagers) and are not among them, in order.
///
/// The URLs are grouped by template (text with each digit run replaced by a mark); within a
/// template whose URLs differ in exactly one number, that number is the page key. The step is
/// the smallest difference between consecutive known numbers (1 for page numbers, the page size
/// for offsets such as `&start=40`), and every other difference must be a multiple of it: a
/// larger one leaves pages out. Numbers off that grid (a link whose offset is not a page's)
/// make the list imply nothing, since its step is then unknown. Numbers written with leading
/// zeros are left alone too, since the spelling of the pages between them is not known.
pub fn pages_between_numbers(urls: &[&str]) -> Vec<String> {
    // One URL shows no number that varies: most threads of a crawl are of one page.
    if urls.len() < 2 {
        return Vec::new();
    }
    let (shape_order, by_shape) = numbers_by_shape(urls);
    let mut implied = Vec::new();
    for shape in &shape_order {
        let members = &by_shape[shape];
        if members.len() < 2 {
            continue;
        }
        let width = members[0].len();
        let varying: Vec<usize> = (0..width)
            .filter(|&position| {
                members
                    .iter()
                    .any(|numbers| numbers[position] != members[0][position])
            })
            .collect();
        let [position] = varying[..] else {
            continue;
        };
        let values: Option<BTreeSet<u64>> = members
            .iter()
            .map(|numbers| {
                let text = &numbers[position];
                if text.len() > 1 && text.starts_with('0') {
                    return None;
                }
                text.parse::<u64>().ok()
            })
            .collect();
        let Some(values) = values else {
            continue;
        };
        let values: Vec<u64> = values.into_iter().collect();
        let Some(step) = values.windows(2).map(|pair| pair[1] - pair[0]).min() else {
            continue;
        };
        if step == 0
            || values
                .windows(2)
                .any(|pair| !(pair[1] - pair[0]).is_multiple_of(step))
        {
            continue;
        }
        for pair in values.windows(2) {
            let difference = pair[1] - pair[0];
            if difference == step || difference / step > MOST_PAGES_BETWEEN {
                continue;
            }
            let mut value = pair[0] + step;
            while value < pair[1] {
                let mut numbers = members[0].clone();
                numbers[position] = value.to_string();
                implied.push(fill(shape, &numbers));
                value += step;
            }
        }
    }
    implied
}

/// `shape` with its marks replaced by `numbers`, in order.
fn fill(shape: &str, numbers: &[String]) -> String {
    let mut text = String::with_capacity(shape.len() + 8 * numbers.len());
    let mut pieces = shape.split(DIGITS_MARK);
    text.push_str(pieces.next().unwrap_or(""));
    for (piece, number) in pieces.zip(numbers) {
        text.push_str(number);
        text.push_str(piece);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(urls: &[&str], expected: &[&str]) {
        assert_eq!(pages_between_numbers(urls), expected, "{urls:?}");
    }

    #[test]
    fn a_window_pager_implies_the_pages_between_its_numbers() {
        check(
            &[
                "http://f.test/t?id=5",
                "http://f.test/t?id=5&page=2",
                "http://f.test/t?id=5&page=3",
                "http://f.test/t?id=5&page=6",
            ],
            &["http://f.test/t?id=5&page=4", "http://f.test/t?id=5&page=5"],
        );
        check(
            &[
                "http://f.test/viewtopic.php?t=5&start=10",
                "http://f.test/viewtopic.php?t=5&start=20",
                "http://f.test/viewtopic.php?t=5&start=50",
            ],
            &[
                "http://f.test/viewtopic.php?t=5&start=30",
                "http://f.test/viewtopic.php?t=5&start=40",
            ],
        );
        check(
            &[
                "http://f.test/threads/slug.12/page-2",
                "http://f.test/threads/slug.12/page-3",
                "http://f.test/threads/slug.12/page-5#posts",
            ],
            &["http://f.test/threads/slug.12/page-4"],
        );
    }

    #[test]
    fn links_spelled_as_pages_of_the_list_are_its_pages() {
        let list = [
            "http://f.test/b/c02e696f/1.html",
            "http://f.test/b/c02e696f/2.html",
            "http://f.test/b/c02e696f/3.html",
        ];
        let links = [
            "http://f.test/b/c02e696f/4.html",
            "http://f.test/b/c02e696f/2.html",
            // Another board, a thread, a sort order, the same page twice.
            "http://f.test/b/c02e697f/4.html",
            "http://f.test/t/c14b202e.html",
            "http://f.test/b/c02e696f/?sort=title",
            "http://f.test/b/c02e696f/4.html#top",
        ];
        let alike = |list: &[&str], links: &[&str]| -> Vec<(String, bool)> {
            pages_linked_alike(list, links)
                .into_iter()
                .map(|page| (page.url, page.first_page))
                .collect()
        };
        assert_eq!(
            alike(&list[1..], &links),
            [("http://f.test/b/c02e696f/4.html".to_string(), false)]
        );
        assert_eq!(
            alike(&list[1..], &[list[0]]),
            [("http://f.test/b/c02e696f/1.html".to_string(), true)]
        );
        // One page alone shows no page key.
        assert!(alike(&list[..1], &links).is_empty());
    }

    #[test]
    fn consecutive_or_uneven_numbers_imply_nothing() {
        check(
            &[
                "http://f.test/t?id=5&page=2",
                "http://f.test/t?id=5&page=3",
                "http://f.test/t?id=5&page=4",
            ],
            &[],
        );
        // A link whose offset is off the pages' grid: the step is unknown.
        check(
            &[
                "http://f.test/t?id=5&start=10",
                "http://f.test/t?id=5&start=20",
                "http://f.test/t?id=5&start=35",
            ],
            &[],
        );
        // Two numbers vary: not one list's page key.
        check(
            &["http://f.test/t?id=5&page=2", "http://f.test/t?id=6&page=9"],
            &[],
        );
        // Zero-padded numbers: the spelling between them is unknown.
        check(
            &["http://f.test/t-5-02.html", "http://f.test/t-5-05.html"],
            &[],
        );
        check(&["http://f.test/t?id=5&page=2"], &[]);
    }
}
