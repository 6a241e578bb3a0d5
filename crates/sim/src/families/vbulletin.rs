//! TEMPORARY scaffold: replaced by the real vbulletin family.
#[derive(Debug)]
pub(crate) struct Vbulletin(super::phpbb::Phpbb);
impl Vbulletin {
    pub(crate) fn new() -> Self {
        Vbulletin(super::phpbb::Phpbb::new())
    }
}
impl super::Family for Vbulletin {
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
