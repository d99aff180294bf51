//! Stage 1, first half: finds the two yaml fences of a `principles.md` (docs/src/reference/limits.md) with
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
    /// The file line of the first `## Limits` heading.
    pub limits_heading: Option<usize>,
    /// What looks meant for Limits but isn't read, in file order.
    pub instead: Vec<Instead>,
}

/// Something near a Limits section that structgate doesn't read as one: what `limits`
/// names when a `principles.md` declares none (docs/src/reference/limits.md).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Instead {
    /// A level-2 heading titled `limits` in another case, or with more words.
    HeadingTitle { line: usize, title: String },
    /// A `Limits` heading at another level (not `### Limits` of `## Project Specifics`).
    HeadingLevel { line: usize, level: usize },
    /// A code block in `## Limits` that isn't a yaml fence (`info` as written; `None`
    /// for an indented block).
    NotYaml { line: usize, info: Option<String> },
    /// A yaml fence outside `## Limits`, under a heading (`None`: before any).
    FenceOutside { line: usize, under: Option<String> },
}

impl Instead {
    /// The message, after `path:line: `.
    pub fn describe(&self, path: &str) -> String {
        match self {
            Instead::HeadingTitle { line, title } => format!(
                "{path}:{line}: a heading \"## {title}\": only a level-2 heading titled exactly Limits starts the section"
            ),
            Instead::HeadingLevel { line, level } => format!(
                "{path}:{line}: a heading \"{} Limits\" at level {level}: the section is the level-2 \"## Limits\"",
                "#".repeat(*level)
            ),
            Instead::NotYaml { line, info: None } => format!(
                "{path}:{line}: an indented code block in ## Limits: only a ```yaml fence is read"
            ),
            Instead::NotYaml { line, info: Some(info) } if info.is_empty() => format!(
                "{path}:{line}: a fence without the yaml tag in ## Limits: open it with ```yaml"
            ),
            Instead::NotYaml { line, info: Some(info) } => format!(
                "{path}:{line}: a fence tagged {info} in ## Limits: only a yaml (or yml) fence is read"
            ),
            Instead::FenceOutside { line, under } => {
                let place = under
                    .as_ref()
                    .map_or_else(|| "before any heading".to_string(), |h| format!("under \"{h}\""));
                format!(
                    "{path}:{line}: a yaml fence {place}, outside ## Limits: only a fence inside the section is read"
                )
            }
        }
    }
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
    /// The heading of the level-1 or level-2 section the walk is in, as written.
    under: Option<String>,
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
        under: None,
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
            Event::Start(Tag::CodeBlock(kind)) => self.other_block(kind, line),
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
        self.note_near_heading(level, title, line);
        match level {
            HeadingLevel::H1 | HeadingLevel::H2 => {
                self.under = Some(format!("{} {title}", "#".repeat(level as usize)));
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

    /// A heading that reads as meant for Limits without being the section: `## limits`,
    /// `## Limits (code)`, `# Limits`, `### Limits` outside `## Project Specifics`.
    fn note_near_heading(&mut self, level: HeadingLevel, title: &str, line: usize) {
        let lower = title.to_ascii_lowercase();
        let instead = match level {
            HeadingLevel::H2 if title != "Limits" && lower.starts_with("limits") => {
                Instead::HeadingTitle {
                    line,
                    title: title.to_string(),
                }
            }
            HeadingLevel::H3 if self.section == Section::ProjectSpecifics => return,
            HeadingLevel::H2 => return,
            _ if lower == "limits" => Instead::HeadingLevel {
                line,
                level: level as usize,
            },
            _ => return,
        };
        self.found.instead.push(instead);
    }

    /// A code block that isn't a yaml fence: noted when it stands where the fence of
    /// `## Limits` would.
    fn other_block(&mut self, kind: CodeBlockKind<'_>, line: impl FnMut() -> usize) {
        if self.section != Section::Limits || self.found.limits.is_some() {
            return;
        }
        let info = match kind {
            CodeBlockKind::Fenced(info) => Some(info.trim().to_string()),
            CodeBlockKind::Indented => None,
        };
        let mut line = line;
        self.found
            .instead
            .push(Instead::NotYaml { line: line(), info });
    }

    /// Only the first `## Limits` section is read; later ones are noted.
    fn limits_section(&mut self, line: usize) -> Section {
        if self.found.limits_heading.is_none() {
            self.found.limits_heading = Some(line);
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
            Section::Other => {
                let under = self.under.clone();
                self.found.instead.push(Instead::FenceOutside {
                    line: open_line(),
                    under,
                });
                return;
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
