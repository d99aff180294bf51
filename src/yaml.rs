//! The one place that parses YAML (serde_yaml is archived; keep it swappable).
