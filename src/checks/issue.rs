//! What a finding is: its code, severity, class, message and details.

use serde_json::Value;

use super::code::{Class, Code, Group, Severity};

/// One finding. `details` are the additive fields of the JSON issue
/// (`detailCode`, `phase`, `line`, ...), in order.
#[derive(Debug, Clone, PartialEq)]
pub struct Issue {
    pub code: Code,
    pub severity: Severity,
    pub class: Class,
    pub message: String,
    pub details: Vec<(&'static str, Value)>,
}

impl Issue {
    /// An issue with its code's default class and severity.
    pub fn new(code: Code, message: impl Into<String>) -> Issue {
        let info = code.info();
        Issue {
            code,
            severity: info.severity,
            class: info.class,
            message: message.into(),
            details: Vec::new(),
        }
    }

    /// The same issue at another severity, for rules whose force depends
    /// on the protocol version (MUST in one, SHOULD in another).
    pub fn at(mut self, severity: Severity) -> Issue {
        self.severity = severity;
        self
    }

    pub fn with(mut self, key: &'static str, value: impl Into<Value>) -> Issue {
        self.details.push((key, value.into()));
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    pub fn in_group(&self, group: Group) -> bool {
        self.code.info().groups.contains(&group)
    }

    /// A detail's value.
    pub fn detail(&self, key: &str) -> Option<&Value> {
        self.details.iter().find(|(k, _)| *k == key).map(|(_, v)| v)
    }
}
