//! Page analysis (work in progress for issue 3): understanding one forum page without touching
//! the network or the disk.
//!
//! [`charset::decode_html`] turns served bytes into text whatever the charset; [`dom::Document`]
//! is a compact browser-correct tree of a page.

pub mod charset;
pub mod dom;
