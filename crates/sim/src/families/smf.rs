//! TEMPORARY scaffold: replaced by the real smf family.
#[derive(Debug)]
pub(crate) struct Smf(super::phpbb::Phpbb);
impl Smf {
    pub(crate) fn new() -> Self {
        Smf(super::phpbb::Phpbb::new())
    }
}
impl super::Family for Smf {
    fn profile(&self) -> &super::FamilyProfile {
        self.0.profile()
    }
    fn encode(&self, a: &crate::route::Address, h: &crate::history::ForumHistory) -> String {
        self.0.encode(a, h)
    }
    fn decode(&self, p: &str, h: &crate::history::ForumHistory) -> Option<crate::route::Address> {
        self.0.decode(p, h)
    }
    fn render(&self, p: &crate::views::Page, c: &super::RenderContext<'_>) -> String {
        self.0.render(p, c)
    }
}
