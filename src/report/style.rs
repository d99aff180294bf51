//! Colour for the text reports: decided once per stream, applied by the renderers. Only
//! text goes through here; JSON, TSV, SARIF and GitHub output are never coloured.

use std::ffi::OsStr;

use anstyle::{AnsiColor, Style};
use clap::ColorChoice;

/// Whether a stream gets colour. `always` and `never` are obeyed as given; `auto`
/// colours only a terminal, and only while `NO_COLOR` is unset or empty
/// (<https://no-color.org>) and `TERM` is not `dumb`.
pub fn enabled(
    choice: ColorChoice,
    is_terminal: bool,
    no_color: Option<&OsStr>,
    term: Option<&OsStr>,
) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            is_terminal && no_color.is_none_or(OsStr::is_empty) && term.is_none_or(|t| t != "dumb")
        }
    }
}

/// Paints text for one stream, or leaves it plain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Paint {
    pub on: bool,
}

/// What a piece of text means; each role has one style.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Fails: an excess, a failed headline, `error:`.
    Bad,
    /// Passes but is worth a look: a divergence, not judged, `warning:`.
    Warn,
    /// Within the limits.
    Good,
    /// Tolerated by the baseline; the base line.
    Quiet,
    /// A section heading.
    Heading,
}

impl Paint {
    /// No colour, whatever the stream.
    pub const PLAIN: Paint = Paint { on: false };

    /// Decides for stdout (`stderr: false`) or stderr from the real stream and the
    /// environment.
    pub fn for_stream(choice: ColorChoice, stderr: bool) -> Paint {
        use std::io::IsTerminal as _;
        let is_terminal = if stderr {
            std::io::stderr().is_terminal()
        } else {
            std::io::stdout().is_terminal()
        };
        let no_color = std::env::var_os("NO_COLOR");
        let term = std::env::var_os("TERM");
        Paint {
            on: enabled(choice, is_terminal, no_color.as_deref(), term.as_deref()),
        }
    }

    /// `text` in the style of `role`, or as it is when colour is off.
    pub fn paint(self, role: Role, text: &str) -> String {
        if !self.on || text.is_empty() {
            return text.to_string();
        }
        let style = style(role);
        format!("{}{text}{}", style.render(), style.render_reset())
    }
}

fn style(role: Role) -> Style {
    let fg = |c: AnsiColor| Style::new().fg_color(Some(c.into()));
    match role {
        Role::Bad => fg(AnsiColor::Red).bold(),
        Role::Warn => fg(AnsiColor::Yellow),
        Role::Good => fg(AnsiColor::Green),
        Role::Quiet => Style::new().dimmed(),
        Role::Heading => Style::new().bold(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(s: &str) -> Option<&OsStr> {
        Some(OsStr::new(s))
    }

    #[test]
    fn auto_colours_a_terminal_only() {
        assert!(enabled(ColorChoice::Auto, true, None, os("xterm")));
        assert!(!enabled(ColorChoice::Auto, false, None, os("xterm")));
    }

    #[test]
    fn no_color_set_and_non_empty_turns_auto_off() {
        assert!(!enabled(ColorChoice::Auto, true, os("1"), None));
        assert!(enabled(ColorChoice::Auto, true, os(""), None));
        assert!(!enabled(ColorChoice::Auto, true, None, os("dumb")));
    }

    #[test]
    fn always_and_never_win_over_the_environment() {
        assert!(enabled(ColorChoice::Always, false, os("1"), os("dumb")));
        assert!(!enabled(ColorChoice::Never, true, None, os("xterm")));
    }

    #[test]
    fn paint_wraps_in_sgr_codes_only_when_on() {
        assert_eq!(Paint::PLAIN.paint(Role::Bad, "x"), "x");
        let on = Paint { on: true };
        assert_eq!(on.paint(Role::Bad, "x"), "\u{1b}[1m\u{1b}[31mx\u{1b}[0m");
        assert_eq!(on.paint(Role::Warn, "x"), "\u{1b}[33mx\u{1b}[0m");
        assert_eq!(on.paint(Role::Good, ""), "");
    }
}
