//! The html5ever tree sink that fills a [`Document`]'s arena.

use std::borrow::Cow;
use std::cell::{Ref, RefCell};
use std::ops::Range;
use std::sync::OnceLock;

use html5ever::interface::{ElementFlags, NodeOrText, QuirksMode, TreeSink};
use html5ever::tendril::StrTendril;
use html5ever::{Attribute, LocalName, QualName, local_name, ns};

use super::{Document, Node, NodeId, NodeKind, ROOT};

/// The html5ever tree sink that fills the arena.
#[derive(Default)]
pub(super) struct ArenaSink {
    nodes: RefCell<Vec<Node>>,
    text: RefCell<String>,
    attribute_names: RefCell<Vec<LocalName>>,
    attribute_values: RefCell<Vec<Range<u32>>>,
}

fn empty_name() -> QualName {
    QualName::new(None, ns!(), local_name!(""))
}

impl ArenaSink {
    /// A sink sized for a page of `html_bytes` bytes. Growing the node vector by doubling copied
    /// every node again at each step (nodes are large, and pages hold thousands), which cost
    /// about a tenth of filling the tree; typical pages hold one node per 20 to 40 bytes of
    /// markup and a third of their bytes as text and attribute values, so these guesses leave
    /// at most one or two growth steps on unusual pages and reserve (untouched) address space on
    /// others.
    pub(super) fn for_page_of(html_bytes: usize) -> Self {
        ArenaSink {
            nodes: RefCell::new(Vec::with_capacity(html_bytes / 24 + 16)),
            text: RefCell::new(String::with_capacity(html_bytes / 2 + 64)),
            attribute_names: RefCell::new(Vec::with_capacity(html_bytes / 32 + 16)),
            attribute_values: RefCell::new(Vec::with_capacity(html_bytes / 32 + 16)),
        }
    }

    fn push(&self, node: Node) -> NodeId {
        let mut nodes = self.nodes.borrow_mut();
        if nodes.is_empty() {
            nodes.push(Node::new(NodeKind::Document, empty_name()));
        }
        nodes.push(node);
        (nodes.len() - 1) as NodeId
    }

    fn store_text(&self, text: &str) -> Range<u32> {
        let mut buffer = self.text.borrow_mut();
        let start = buffer.len() as u32;
        buffer.push_str(text);
        start..buffer.len() as u32
    }

    fn detach(&self, id: NodeId) {
        let mut nodes = self.nodes.borrow_mut();
        let (parent, previous, next) = {
            let node = &nodes[id as usize];
            (node.parent, node.previous_sibling, node.next_sibling)
        };
        if let Some(previous) = previous {
            nodes[previous as usize].next_sibling = next;
        } else if let Some(parent) = parent {
            nodes[parent as usize].first_child = next;
        }
        if let Some(next) = next {
            nodes[next as usize].previous_sibling = previous;
        } else if let Some(parent) = parent {
            nodes[parent as usize].last_child = previous;
        }
        let node = &mut nodes[id as usize];
        node.parent = None;
        node.previous_sibling = None;
        node.next_sibling = None;
    }

    fn append_node(&self, parent: NodeId, child: NodeId) {
        self.detach(child);
        let mut nodes = self.nodes.borrow_mut();
        let last = nodes[parent as usize].last_child;
        nodes[child as usize].parent = Some(parent);
        nodes[child as usize].previous_sibling = last;
        match last {
            Some(last) => nodes[last as usize].next_sibling = Some(child),
            None => nodes[parent as usize].first_child = Some(child),
        }
        nodes[parent as usize].last_child = Some(child);
    }

    fn insert_before(&self, sibling: NodeId, child: NodeId) {
        self.detach(child);
        let mut nodes = self.nodes.borrow_mut();
        let parent = nodes[sibling as usize].parent;
        let previous = nodes[sibling as usize].previous_sibling;
        nodes[child as usize].parent = parent;
        nodes[child as usize].previous_sibling = previous;
        nodes[child as usize].next_sibling = Some(sibling);
        nodes[sibling as usize].previous_sibling = Some(child);
        match previous {
            Some(previous) => nodes[previous as usize].next_sibling = Some(child),
            None => {
                if let Some(parent) = parent {
                    nodes[parent as usize].first_child = Some(child);
                }
            }
        }
    }

    /// Appends text after `previous` when it is a text node (html5ever expects adjacent text to
    /// merge), or as a new text node.
    fn text_node_or_merge(&self, previous: Option<NodeId>, text: &str) -> Option<NodeId> {
        if let Some(previous) = previous {
            let is_text = self.nodes.borrow()[previous as usize].kind == NodeKind::Text;
            if is_text {
                let old = self.nodes.borrow()[previous as usize].text.clone();
                let mut buffer = self.text.borrow_mut();
                let range = if old.end as usize == buffer.len() {
                    buffer.push_str(text);
                    old.start..buffer.len() as u32
                } else {
                    // The text is not at the end of the buffer: copy it there and extend.
                    let start = buffer.len() as u32;
                    let copy = buffer[old.start as usize..old.end as usize].to_string();
                    buffer.push_str(&copy);
                    buffer.push_str(text);
                    start..buffer.len() as u32
                };
                drop(buffer);
                self.nodes.borrow_mut()[previous as usize].text = range;
                return None;
            }
        }
        let range = self.store_text(text);
        let mut node = Node::new(NodeKind::Text, empty_name());
        node.text = range;
        Some(self.push(node))
    }

    fn store_attributes(&self, attributes: &[Attribute]) -> Range<u32> {
        let mut names = self.attribute_names.borrow_mut();
        let mut values = self.attribute_values.borrow_mut();
        let start = names.len() as u32;
        for attribute in attributes {
            names.push(attribute.name.local.clone());
            values.push(self.store_text(&attribute.value));
        }
        start..names.len() as u32
    }
}

impl TreeSink for ArenaSink {
    type Handle = NodeId;
    type Output = Document;
    type ElemName<'a> = Ref<'a, QualName>;

    fn finish(self) -> Document {
        let mut nodes = self.nodes.into_inner();
        if nodes.is_empty() {
            nodes.push(Node::new(NodeKind::Document, empty_name()));
        }
        Document {
            nodes,
            text: self.text.into_inner(),
            attribute_names: self.attribute_names.into_inner(),
            attribute_values: self.attribute_values.into_inner(),
            signatures: OnceLock::new(),
            region_facts: OnceLock::new(),
            single_records: OnceLock::new(),
            subtree_spans: OnceLock::new(),
        }
    }

    fn parse_error(&self, _message: Cow<'static, str>) {
        // Forum markup is routinely invalid; the tree builder already recovers as browsers do.
    }

    fn get_document(&self) -> NodeId {
        let mut nodes = self.nodes.borrow_mut();
        if nodes.is_empty() {
            nodes.push(Node::new(NodeKind::Document, empty_name()));
        }
        ROOT
    }

    fn elem_name<'a>(&'a self, target: &'a NodeId) -> Ref<'a, QualName> {
        Ref::map(self.nodes.borrow(), |nodes| &nodes[*target as usize].name)
    }

    fn create_element(
        &self,
        name: QualName,
        attributes: Vec<Attribute>,
        _: ElementFlags,
    ) -> NodeId {
        let range = self.store_attributes(&attributes);
        let mut node = Node::new(NodeKind::Element, name);
        node.attributes = range;
        self.push(node)
    }

    fn create_comment(&self, text: StrTendril) -> NodeId {
        let range = self.store_text(&text);
        let mut node = Node::new(NodeKind::Comment, empty_name());
        node.text = range;
        self.push(node)
    }

    fn create_pi(&self, _target: StrTendril, data: StrTendril) -> NodeId {
        self.create_comment(data)
    }

    fn append(&self, parent: &NodeId, child: NodeOrText<NodeId>) {
        match child {
            NodeOrText::AppendNode(node) => self.append_node(*parent, node),
            NodeOrText::AppendText(text) => {
                let last = self.nodes.borrow()[*parent as usize].last_child;
                if let Some(node) = self.text_node_or_merge(last, &text) {
                    self.append_node(*parent, node);
                }
            }
        }
    }

    fn append_based_on_parent_node(
        &self,
        element: &NodeId,
        previous_element: &NodeId,
        child: NodeOrText<NodeId>,
    ) {
        if self.nodes.borrow()[*element as usize].parent.is_some() {
            self.append_before_sibling(element, child);
        } else {
            self.append(previous_element, child);
        }
    }

    fn append_doctype_to_document(&self, _: StrTendril, _: StrTendril, _: StrTendril) {
        let id = self.push(Node::new(NodeKind::Doctype, empty_name()));
        self.append_node(ROOT, id);
    }

    fn get_template_contents(&self, target: &NodeId) -> NodeId {
        // Template contents are kept inline under the template element: analysis never needs the
        // separate document fragment a browser would make.
        *target
    }

    fn same_node(&self, x: &NodeId, y: &NodeId) -> bool {
        x == y
    }

    fn set_quirks_mode(&self, _mode: QuirksMode) {}

    fn append_before_sibling(&self, sibling: &NodeId, new_node: NodeOrText<NodeId>) {
        match new_node {
            NodeOrText::AppendNode(node) => self.insert_before(*sibling, node),
            NodeOrText::AppendText(text) => {
                let previous = self.nodes.borrow()[*sibling as usize].previous_sibling;
                if let Some(node) = self.text_node_or_merge(previous, &text) {
                    self.insert_before(*sibling, node);
                }
            }
        }
    }

    fn add_attrs_if_missing(&self, target: &NodeId, attributes: Vec<Attribute>) {
        let existing: Vec<LocalName> = {
            let nodes = self.nodes.borrow();
            let range = nodes[*target as usize].attributes.clone();
            let names = self.attribute_names.borrow();
            names[range.start as usize..range.end as usize].to_vec()
        };
        let missing: Vec<Attribute> = attributes
            .into_iter()
            .filter(|a| !existing.contains(&a.name.local))
            .collect();
        if missing.is_empty() {
            return;
        }
        // Attributes of one element must be contiguous: copy the old ones after the new ones.
        let old = self.nodes.borrow()[*target as usize].attributes.clone();
        let copied: Vec<(LocalName, String)> = {
            let names = self.attribute_names.borrow();
            let values = self.attribute_values.borrow();
            let text = self.text.borrow();
            (old.start as usize..old.end as usize)
                .map(|i| {
                    let value = &values[i];
                    (
                        names[i].clone(),
                        text[value.start as usize..value.end as usize].to_string(),
                    )
                })
                .collect()
        };
        let start = self.attribute_names.borrow().len() as u32;
        for (name, value) in copied {
            let range = self.store_text(&value);
            self.attribute_names.borrow_mut().push(name);
            self.attribute_values.borrow_mut().push(range);
        }
        self.store_attributes(&missing);
        let end = self.attribute_names.borrow().len() as u32;
        self.nodes.borrow_mut()[*target as usize].attributes = start..end;
    }

    fn remove_from_parent(&self, target: &NodeId) {
        self.detach(*target);
    }

    fn reparent_children(&self, node: &NodeId, new_parent: &NodeId) {
        loop {
            // Read the first child in its own statement: a borrow taken in a `while let`
            // condition would live through the loop body and clash with `append_node`.
            let first = self.nodes.borrow()[*node as usize].first_child;
            let Some(child) = first else { break };
            self.append_node(*new_parent, child);
        }
    }
}
