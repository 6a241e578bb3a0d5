//! The dates a page shows, each attached to the element that shows it: the candidates that the
//! time columns of posts and thread entries are chosen from.

use super::date_labels::{labelled_as_profile_date_at, labelled_as_profile_date_in_text};
use crate::dom::{Document, NodeId, NodeKind, ROOT, trim_whitespace};
use crate::time::{
    DateContext, DayMonthOrder, ParsedTime, Precision, TimeMatch, find_times, parse_time,
    parse_unix_time,
};

/// A date found in a record: the element that shows it and what it says.
#[derive(Debug, Clone, Copy)]
pub(super) struct DateCandidate {
    pub(super) element: NodeId,
    pub(super) time: ParsedTime,
    /// From an attribute meant for machines (`datetime`, `title`, `data-time`).
    pub(super) machine: bool,
    /// Labelled by the page as an author's join, registration or last-visit date
    /// ([`super::date_labels`]): never a record's time.
    pub(super) profile_date: bool,
}

impl DateCandidate {
    /// Whether the date may be the time of a post or thread entry: it names at least a day and
    /// the page does not label it as something else.
    pub(super) fn may_be_record_time(&self) -> bool {
        self.time.precision >= Precision::Day && !self.profile_date
    }
}

/// The attributes read as dates, in the order their dates are listed for one element. The
/// last, `content`, is read only where an `itemprop` names the date a post was written
/// ([`names_time_of_writing`]).
const DATE_ATTRIBUTES: [&str; 5] = [
    "datetime",
    "title",
    "data-time",
    "data-timestamp",
    "content",
];

/// Whether a schema.org `itemprop` value names when the item was written. Engines that print
/// post times only as relative text or in scripts still state them for search engines, as
/// `<meta itemprop="datePublished" content="...">` inside each post; `dateModified` is an
/// edit time and is left out.
fn names_time_of_writing(itemprop: &str) -> bool {
    itemprop
        .split_ascii_whitespace()
        .any(|name| name == "datePublished" || name == "dateCreated")
}

/// Every date shown on the page, attached to the element that shows it, in document order.
pub(super) fn date_candidates(document: &Document, context: &DateContext) -> Vec<DateCandidate> {
    // Texts are read one by one, but the day and month order is the page's: one "28/02/2007"
    // anywhere proves that "06/02/2008" in another element is the 6th of February. So the
    // page's matches are gathered first, in document order, and the order settled over all of
    // them before they become candidates.
    let mut pending: Vec<PendingDate<'_>> = Vec::new();
    for node in document.descendants(ROOT) {
        let data = document.node(node);
        match data.kind {
            NodeKind::Text => {
                let Some(parent) = data.parent else { continue };
                if document.node(parent).is("script") || document.node(parent).is("style") {
                    continue;
                }
                let text = document.text_of(node);
                // Most text nodes are the whitespace between tags, where no date can be: the
                // scan is not started for them.
                if trim_whitespace(text).is_empty() {
                    continue;
                }
                let found = find_times(text, context);
                if !found.is_empty() {
                    pending.push(PendingDate::Text(node, parent, found));
                }
            }
            NodeKind::Element => {
                // Each attribute's name is read once and matched against the four, rather than
                // the attributes searched once per name; the dates still go in the names' order.
                let mut values: [Option<&str>; DATE_ATTRIBUTES.len()] = [None; 5];
                let mut time_of_writing = false;
                for (name, value) in document.attributes(node) {
                    let slot = match name {
                        "datetime" => 0,
                        "title" => 1,
                        "data-time" => 2,
                        "data-timestamp" => 3,
                        "content" => 4,
                        "itemprop" => {
                            time_of_writing |= names_time_of_writing(value);
                            continue;
                        }
                        _ => continue,
                    };
                    // The first of repeated names counts, as `Document::attribute` reads it.
                    values[slot].get_or_insert(value);
                }
                if !time_of_writing {
                    values[4] = None;
                }
                for (attribute, value) in DATE_ATTRIBUTES.into_iter().zip(values) {
                    if let Some(value) = value {
                        pending.push(PendingDate::Attribute(node, attribute, value));
                    }
                }
            }
            _ => {}
        }
    }
    let page_context = match page_day_month_order(&pending) {
        Some(order) if context.day_month_order == DayMonthOrder::Unknown => {
            for found in pending.iter_mut().flat_map(|pending| match pending {
                PendingDate::Text(_, _, found) => found.as_mut_slice(),
                PendingDate::Attribute(..) => &mut [],
            }) {
                if let (true, Some(alternative)) = (found.order_by_default, found.alternative) {
                    found.alternative = Some(found.time);
                    found.time = alternative;
                    found.order_by_default = false;
                }
            }
            context.with_day_month_order(order)
        }
        _ => *context,
    };
    // Labels are read once every date is known: a label is the nearest text before a date,
    // and when that text sits in an element showing a date of its own (`joined <span
    // title="...">` before the post's own time), it labels that date and not the next one.
    let mut candidates = Vec::new();
    let mut labels = Vec::new();
    for pending in pending {
        match pending {
            PendingDate::Text(text_node, parent, found) => {
                for found in found {
                    let mut best = DateCandidate {
                        element: parent,
                        time: found.time,
                        machine: false,
                        profile_date: false,
                    };
                    // Engines often print the day and the clock in separate elements
                    // ("14.12.2019 <span class=time>21:42</span>", "Mar 30<sup>th</sup>, 2025,
                    // 10:11pm"): when a text gives only a day, read the short text of the
                    // enclosing elements as one expression.
                    if found.time.precision == Precision::Day {
                        best = with_clock_nearby(document, parent, best, &page_context);
                    }
                    candidates.push(best);
                    labels.push(LabelPlace::Text(text_node, found.start));
                }
            }
            PendingDate::Attribute(node, attribute, value) => {
                let parsed = if attribute.starts_with("data-") {
                    parse_unix_time(value)
                } else {
                    parse_time(value, &page_context)
                };
                if let Some(time) = parsed {
                    candidates.push(DateCandidate {
                        element: node,
                        time,
                        machine: true,
                        profile_date: false,
                    });
                    // An `itemprop` naming the time of writing says what the date is: no label
                    // before it can make it a join date.
                    labels.push(if attribute == "content" {
                        LabelPlace::Named
                    } else {
                        LabelPlace::Element(node)
                    });
                }
            }
        }
    }
    let mut shows_date = vec![false; document.len()];
    for candidate in &candidates {
        shows_date[candidate.element as usize] = true;
    }
    for (candidate, label) in candidates.iter_mut().zip(labels) {
        candidate.profile_date = match label {
            LabelPlace::Text(text_node, start) => labelled_as_profile_date_in_text(
                document,
                text_node,
                &document.text_of(text_node)[..start],
                &shows_date,
            ),
            LabelPlace::Element(node) => labelled_as_profile_date_at(document, node, &shows_date),
            LabelPlace::Named => false,
        };
    }
    candidates.retain(|candidate| !is_page_clock(candidate, context));
    candidates
}

/// Whether a date is the page's own clock: a time stated in full (not "Today" or "3 minutes
/// ago", which a post just written shows too) that names the minute the page was fetched, on a
/// forum whose offset is known. Headers greet the reader with the current time ("Welcome, Guest.
/// Jan 1st, 2026, 12:00am") beside their last visit; two such header rows look like two dated
/// records, and the clock would make them pass for posts. The time tells about the page, not
/// about any record on it. A post written in the very minute of the fetch and printed in full
/// loses its time to this rule, a rare loss beside a header read as posts.
fn is_page_clock(candidate: &DateCandidate, context: &DateContext) -> bool {
    let Some(offset) = candidate
        .time
        .explicit_offset_seconds
        .or(context.utc_offset_seconds)
    else {
        return false;
    };
    !candidate.time.relative
        && candidate.time.precision >= Precision::Minute
        && candidate.time.instant(offset).as_second().div_euclid(60)
            == context.fetched_at.as_second().div_euclid(60)
}

/// Where the label of a date would be: before its start in a text node, before the element
/// whose attribute gives it, or nowhere because the markup names the date.
enum LabelPlace {
    Text(NodeId, usize),
    Element(NodeId),
    Named,
}

/// A date found on the page before the page's day and month order is settled: a text's matches
/// (with the text node and the element holding it), or an attribute still to be read.
enum PendingDate<'document> {
    Text(NodeId, NodeId, Vec<TimeMatch>),
    Attribute(NodeId, &'static str, &'document str),
}

/// Day first when some numeric date of the page can only be read day first and none only month
/// first; nothing otherwise (the readers' month-first default stands).
fn page_day_month_order(pending: &[PendingDate<'_>]) -> Option<DayMonthOrder> {
    let proves = |order: DayMonthOrder| {
        pending
            .iter()
            .flat_map(|pending| match pending {
                PendingDate::Text(_, _, found) => found.as_slice(),
                PendingDate::Attribute(..) => &[],
            })
            .any(|found| found.evidence == Some(order))
    };
    (proves(DayMonthOrder::DayFirst) && !proves(DayMonthOrder::MonthFirst))
        .then_some(DayMonthOrder::DayFirst)
}

/// Looks up to two levels above `element` for a short text that reads as the same day with a
/// clock, and returns that reading attached to the element holding it.
fn with_clock_nearby(
    document: &Document,
    element: NodeId,
    day_only: DateCandidate,
    context: &DateContext,
) -> DateCandidate {
    let mut current = element;
    for _ in 0..2 {
        let Some(text) = line_text(document, current) else {
            break;
        };
        // A day read without its year ("Mar 30" before "<sup>th</sup>, 2025") had the year
        // guessed from the fetch; the whole expression states it, so only month and day
        // must agree.
        let same_day = |time: &ParsedTime| {
            let (day, other) = (day_only.time.local.date(), time.local.date());
            if day_only.time.relative {
                (day.month(), day.day()) == (other.month(), other.day())
            } else {
                day == other
            }
        };
        let better = find_times(&text, context)
            .into_iter()
            .find(|found| found.time.precision >= Precision::Minute && same_day(&found.time));
        if let Some(found) = better {
            return DateCandidate {
                element: current,
                time: found.time,
                ..day_only
            };
        }
        match document.node(current).parent {
            Some(parent) => current = parent,
            None => break,
        }
    }
    day_only
}

/// The longest text read around a day for its clock: a date with its label, not a paragraph.
const LONGEST_DATE_LINE: usize = 120;

/// The text below `element` as a line would show it: text nodes joined as they are, since
/// inline elements split dates without a space ("Mar 30<sup>th</sup>, 2025"), and a space
/// where a `<br>` or a block element breaks the line ("10:11pm<br>by bob" is not "10:11pmby").
/// `None` when the text is longer than [`LONGEST_DATE_LINE`].
fn line_text(document: &Document, element: NodeId) -> Option<String> {
    let mut text = String::new();
    let mut walk = document.descendants(element);
    while let Some(node) = walk.next() {
        let data = document.node(node);
        match data.kind {
            NodeKind::Text => {
                let after_block = data
                    .previous_sibling
                    .is_some_and(|sibling| super::is_block(document.node(sibling).tag()));
                if after_block {
                    text.push(' ');
                }
                text.push_str(document.text_of(node));
                if text.len() > 2 * LONGEST_DATE_LINE {
                    return None;
                }
            }
            NodeKind::Element if data.is("script") || data.is("style") => walk.skip_children(),
            NodeKind::Element if node != element && super::is_block(data.tag()) => {
                text.push(' ');
            }
            _ => {}
        }
    }
    let collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    (collapsed.len() <= LONGEST_DATE_LINE).then_some(collapsed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::Timestamp;

    /// The page's dates that name at least a day, as ISO 8601 readings, with `joined` after
    /// the ones labelled as profile dates, in document order; read as fetched on 2 January
    /// 2026 on a forum one hour east of UTC.
    fn readings(html: &str) -> Vec<String> {
        let document = Document::parse(html);
        let fetched_at: Timestamp = "2026-01-02T12:00:00Z".parse().expect("a valid instant");
        let context = DateContext::new(fetched_at, Some(3600));
        date_candidates(&document, &context)
            .into_iter()
            .filter(|candidate| candidate.time.precision >= Precision::Day)
            .map(|candidate| {
                let reading = candidate.time.to_iso8601();
                if candidate.profile_date {
                    format!("{reading} joined")
                } else {
                    reading
                }
            })
            .collect()
    }

    #[track_caller]
    fn check(html: &str, expected: &[&str]) {
        assert_eq!(readings(html), expected, "{html}");
    }

    #[test]
    fn times_in_attributes_of_empty_elements() {
        // A permalink with the time only in its title, after an author's join date shown the
        // same way: the join date keeps its label, the permalink's time does not inherit it.
        check(
            "<div><a href=/user/a>Ann</a> <span class=\"joined\">joined <span class=timeago \
             title=\"2025-09-24T06:28:23.000Z\"></span></span> <a href=/post/1 class=timeago \
             title=\"2025-11-17T00:04:52.000Z\"></a></div>",
            &[
                "2025-09-24T06:28:23+00:00 joined",
                "2025-11-17T00:04:52+00:00",
            ],
        );
        // The label in plain text before the join date, with no class naming it.
        check(
            "<div><a href=/user/a>Ann</a> <span>Joined <span title=\"2025-09-24T06:28:23Z\">\
             </span></span> <a href=/post/1 title=\"2025-11-17T00:04:52Z\"></a></div>",
            &[
                "2025-09-24T06:28:23+00:00 joined",
                "2025-11-17T00:04:52+00:00",
            ],
        );
        // The label right before the empty element still labels it.
        check(
            "<div>Member since <abbr title=\"2025-09-24T06:28:23Z\"></abbr></div>",
            &["2025-09-24T06:28:23+00:00 joined"],
        );
        check(
            "<div><span>Last seen</span> <span title=\"2025-12-31T10:00:00Z\"></span></div>",
            &["2025-12-31T10:00:00+00:00 joined"],
        );
    }

    #[test]
    fn schema_org_times_of_writing() {
        // NodeBB, XenForo 2, Invision and Discourse state each post's time in microdata.
        check(
            "<li itemscope><meta itemprop=\"datePublished\" content=\"2025-11-17T00:04:52.000Z\">\
             <p>Body</p></li>",
            &["2025-11-17T00:04:52+00:00"],
        );
        check(
            "<article><meta itemprop=dateCreated content=\"2025-11-17T01:04:52+01:00\"></article>",
            &["2025-11-17T01:04:52+01:00"],
        );
        // After a "joined" text the microdata is still the post's time: the markup names it.
        check(
            "<div>joined <meta itemprop=datePublished content=\"2025-11-17T00:04:52Z\"></div>",
            &["2025-11-17T00:04:52+00:00"],
        );
        // An edit time, and `content` without a date-of-writing itemprop, are not read.
        check(
            "<div><meta itemprop=dateModified content=\"2025-11-18T00:00:00Z\">\
             <meta name=description content=\"2025-11-18T00:00:00Z\"></div>",
            &[],
        );
    }

    #[test]
    fn the_page_clock_is_no_date_of_a_record() {
        // Fetched at 12:00 UTC, 13:00 on the forum's clock.
        check(
            "<table><tr><td>Welcome, Guest. Jan 2<sup>nd</sup>, 2026, 1:00pm</td></tr>\
             <tr><td>Your last visit: Dec 31<sup>st</sup>, 2025, 2:11am</td></tr></table>",
            &["2025-12-31T02:11 joined"],
        );
        check("<div>It is currently Fri Jan 02, 2026 1:00 pm</div>", &[]);
        check("<time datetime=\"2026-01-02T12:00:30Z\"></time>", &[]);
        // A minute earlier is a post's time; so is a relative date, which a post just written
        // shows, and a clock with no year whose year was guessed.
        check(
            "<div>Jan 2<sup>nd</sup>, 2026, 12:59pm</div>",
            &["2026-01-02T12:59"],
        );
        check("<div>Today, 1:00 pm</div>", &["2026-01-02T13:00"]);
        check("<div>Jan 2, 1:00 pm</div>", &["2026-01-02T13:00"]);
    }

    #[test]
    fn dates_split_by_inline_elements() {
        check(
            "<td>Nov 20<sup>th</sup>, 2025, 12:36pm<br>by Lixrota3</td>",
            &["2025-11-20T12:36"],
        );
        check(
            "<td>&laquo; Posted on: Mar 1<sup>st</sup>, 2025, 10:11pm &raquo;</td>",
            &["2025-03-01T22:11"],
        );
        check(
            "<span>Registered: Nov 9<sup>th</sup>, 2025, 8:52am</span>",
            &["2025-11-09T08:52 joined"],
        );
        check(
            "<div class=date>14.12.2019 <span class=time>21:42</span></div>",
            &["2019-12-14T21:42"],
        );
        check(
            "<div>Dec 2<sup>nd</sup>, 2024<div>9:05 pm</div></div>",
            &["2024-12-02T21:05"],
        );
        // A day with no clock anywhere near stays a day.
        check(
            "<td>Nov 20<sup>th</sup>, 2025<br>by Lixrota3</td>",
            &["2025-11-20"],
        );
    }
}
