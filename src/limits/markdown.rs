//! Stage 1, first half: finds the two yaml fences of a `principles.md` (SPEC §3) with
//! pulldown-cmark. Sections are made by headings at the top level of the document (a
//! heading inside a quote or a list starts no section); fences count at any depth.

use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

use super::Origin;
use crate::lines::LineIndex;

/// The text of one yaml fence and the file line of its first line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fence {
    pub text: String,
    /// 1-based file line of the line after the opening fence.
    pub first_line: usize,
}

impl Fence {
    /// The file line of a 1-based line of the fence's YAML.
    pub fn file_line(&self, yaml_line: usize) -> usize {
        self.first_line + yaml_line.saturating_sub(1)
    }

    /// The file line of the opening fence.
    pub fn open_line(&self) -> usize {
        self.first_line.saturating_sub(1)
    }
}

/// The first fence of `## Limits` and the first of `### Limits` under
/// `## Project Specifics…`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Fences {
    pub limits: Option<Fence>,
    pub project: Option<Fence>,
    /// File lines of `## Limits` headings after the first: those sections are not read.
    pub later_limits_sections: Vec<usize>,
}

/// Which level-2 section the walk is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Section {
    Other,
    Limits,
    ProjectSpecifics,
}

/// The state of one walk over the Markdown events.
struct Walk {
    /// Open block quotes and lists around the current event.
    depth: usize,
    section: Section,
    /// Inside `### Limits` (of whatever level-2 section).
    in_h3_limits: bool,
    /// A top-level heading being read: its level, text so far and file line.
    heading: Option<(HeadingLevel, String, usize)>,
    /// A fence being read: where it goes, and the fence so far.
    fence: Option<(Origin, Fence)>,
    /// The file line of the first `## Limits` heading.
    first_limits: Option<usize>,
    found: Fences,
}

/// Finds the fences of `text`, and any `## Limits` section after the first.
pub fn find_fences(text: &str) -> Fences {
    let mut walk = Walk {
        depth: 0,
        section: Section::Other,
        in_h3_limits: false,
        heading: None,
        fence: None,
        first_limits: None,
        found: Fences::default(),
    };
    let lines = LineIndex::new(text);
    for (event, range) in Parser::new_ext(text, Options::empty()).into_offset_iter() {
        walk.step(event, || lines.line_of(range.start));
    }
    walk.found
}

impl Walk {
    fn step(&mut self, event: Event<'_>, mut line: impl FnMut() -> usize) {
        match event {
            Event::Start(Tag::BlockQuote(_) | Tag::List(_)) => self.depth += 1,
            Event::End(TagEnd::BlockQuote(_) | TagEnd::List(_)) => {
                self.depth = self.depth.saturating_sub(1);
            }
            Event::Start(Tag::Heading { level, .. }) if self.depth == 0 => {
                self.heading = Some((level, String::new(), line()));
            }
            Event::End(TagEnd::Heading(_)) => self.end_heading(),
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) if is_yaml(&info) => {
                self.start_fence(line);
            }
            Event::End(TagEnd::CodeBlock) => self.end_fence(),
            Event::Text(t) | Event::Code(t) => self.text(&t),
            _ => {}
        }
    }

    fn text(&mut self, t: &str) {
        if let Some((_, title, _)) = &mut self.heading {
            title.push_str(t);
        } else if let Some((_, fence)) = &mut self.fence {
            fence.text.push_str(t);
        }
    }

    fn end_heading(&mut self) {
        let Some((level, title, line)) = self.heading.take() else {
            return;
        };
        let title = title.trim();
        match level {
            HeadingLevel::H1 | HeadingLevel::H2 => {
                self.section = match (level, title) {
                    (HeadingLevel::H2, "Limits") => self.limits_section(line),
                    (HeadingLevel::H2, t) if t.starts_with("Project Specifics") => {
                        Section::ProjectSpecifics
                    }
                    _ => Section::Other,
                };
                self.in_h3_limits = false;
            }
            HeadingLevel::H3 => self.in_h3_limits = title == "Limits",
            _ => {}
        }
    }

    /// Only the first `## Limits` section is read; later ones are noted.
    fn limits_section(&mut self, line: usize) -> Section {
        if self.first_limits.is_none() {
            self.first_limits = Some(line);
            return Section::Limits;
        }
        self.found.later_limits_sections.push(line);
        Section::Other
    }

    /// `open_line` is asked for only when the fence is kept: finding a line costs a scan.
    fn start_fence(&mut self, mut open_line: impl FnMut() -> usize) {
        let origin = match self.section {
            Section::Limits if self.found.limits.is_none() => Origin::Limits,
            Section::ProjectSpecifics if self.in_h3_limits && self.found.project.is_none() => {
                Origin::ProjectSpecifics
            }
            _ => return,
        };
        let fence = Fence {
            text: String::new(),
            first_line: open_line() + 1,
        };
        self.fence = Some((origin, fence));
    }

    fn end_fence(&mut self) {
        match self.fence.take() {
            Some((Origin::Limits, fence)) => self.found.limits = Some(fence),
            Some((Origin::ProjectSpecifics, fence)) => self.found.project = Some(fence),
            None => {}
        }
    }
}

/// A fence is yaml when the first word of its info string is `yaml` or `yml`, in any
/// letter case.
fn is_yaml(info: &str) -> bool {
    info.split_whitespace()
        .next()
        .is_some_and(|word| word.eq_ignore_ascii_case("yaml") || word.eq_ignore_ascii_case("yml"))
}
