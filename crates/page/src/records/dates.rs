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

/// The attributes read as dates, in the order their dates are listed for one element.
const DATE_ATTRIBUTES: [&str; 4] = ["datetime", "title", "data-time", "data-timestamp"];

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
                let mut values: [Option<&str>; DATE_ATTRIBUTES.len()] = [None; 4];
                for (name, value) in document.attributes(node) {
                    let slot = match name {
                        "datetime" => 0,
                        "title" => 1,
                        "data-time" => 2,
                        "data-timestamp" => 3,
                        _ => continue,
                    };
                    // The first of repeated names counts, as `Document::attribute` reads it.
                    values[slot].get_or_insert(value);
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
    let mut candidates = Vec::new();
    for pending in pending {
        match pending {
            PendingDate::Text(text_node, parent, found) => {
                let text = document.text_of(text_node);
                for found in found {
                    let mut best = DateCandidate {
                        element: parent,
                        time: found.time,
                        machine: false,
                        profile_date: labelled_as_profile_date_in_text(
                            document,
                            text_node,
                            &text[..found.start],
                        ),
                    };
                    // Engines often print the day and the clock in separate elements
                    // ("14.12.2019 <span class=time>21:42</span>"): when a text gives only a
                    // day, read the short text of the enclosing elements as one expression.
                    if found.time.precision == Precision::Day {
                        best = with_clock_nearby(document, parent, best, &page_context);
                    }
                    candidates.push(best);
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
                        profile_date: labelled_as_profile_date_at(document, node),
                    });
                }
            }
        }
    }
    candidates
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
        let text = document.text_content(current);
        if text.len() > 120 {
            break;
        }
        let better = find_times(&text, context).into_iter().find(|found| {
            found.time.precision >= Precision::Minute
                && found.time.local.date() == day_only.time.local.date()
        });
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
