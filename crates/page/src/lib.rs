//! Page analysis (work in progress for issue 3): understanding one forum page without touching
//! the network or the disk.
//!
//! [`charset::decode_html`] turns served bytes into text whatever the charset; [`dom::Document`]
//! is a compact browser-correct tree of a page; [`regions::find_regions`] finds the record lists
//! a template generated (MDR-style, with shape similarity) and gives each a pattern id stable across
//! the pages of a site, and [`regions::column_of`] places a node in its record's columns;
//! [`links::link_table`] lists every link with its absolute URL, anchor text and location.
//! [`time`] reads the dates forums print and [`records`] reads posts and thread entries from the
//! regions; [`analysis::analyse`] runs it all, reading relative dates on the forum's own clock,
//! which it takes from the page ([`time::site_utc_offset`]) when the caller does not know it.
//! [`lean`] reads only what a recrawl scheduler uses of a list page (post times, thread entries,
//! the pager), leaving out what only an archive keeps.

pub mod analysis;
pub mod charset;
pub mod dom;
pub mod lean;
pub mod links;
pub mod records;
pub mod regions;
pub mod time;

#[cfg(test)]
mod test_stream;
