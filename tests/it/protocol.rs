//! MCP conformance end to end: the initialize result, JSON-RPC invariants,
//! server-to-client traffic, capability probes with cursors, and catalog
//! checks. One fake-server scenario per issue code, each run under a
//! deadline with no process left behind.

use crate::util::{Run, expect, fake};
use serde_json::json;

const MP: &str = "mcpProtocol";

/// Asserts the run fails (exit 1) with `code` as an error.
fn fails_with(scenario: &str, extra: &[&str], code: &str) -> Run {
    let run = fake(scenario, extra);
    expect(&run, code, "error", MP);
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    run
}

/// Asserts the run passes (exit 0) with `code` as its only issue, a warning.
fn warns_with(scenario: &str, extra: &[&str], code: &str) -> Run {
    let run = fake(scenario, extra);
    expect(&run, code, "warning", MP);
    assert_eq!(run.codes(), [code], "{}", run.stdout);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    run
}

/// How many pages of a list the guard requested or reused.
fn pages(run: &Run, key: &str) -> serde_json::Value {
    run.json()["capabilityChecks"][key]["pages"].clone()
}

// Initialize result.

#[test]
fn an_initialize_result_that_is_not_an_object_stops_before_initialized() {
    let run = fails_with("init-result-array", &[], "initialize-invalid-result");
    let j = run.json();
    assert_eq!(j["initialized"], false);
    assert_eq!(j["checks"]["initialize"]["status"], "fail");
    assert_eq!(j["process"]["killReason"], "protocol-error");
    // Nothing but initialize was sent: no probe ran.
    assert_eq!(pages(&run, "tools"), 0);
}

#[test]
fn a_missing_protocol_version_stops_the_handshake() {
    let run = fails_with(
        "init-no-protocol",
        &[],
        "initialize-missing-protocol-version",
    );
    assert_eq!(run.json()["initialized"], false);
}

#[test]
fn a_numeric_protocol_version_is_invalid() {
    fails_with(
        "init-protocol-number",
        &[],
        "initialize-invalid-protocol-version",
    );
}

#[test]
fn echoing_an_unknown_requested_version_is_invalid() {
    let run = fails_with(
        "ok",
        &["--protocol", "1999-01-01"],
        "initialize-invalid-protocol-version",
    );
    let issue = run.issue("initialize-invalid-protocol-version");
    assert!(issue["message"].as_str().unwrap_or("").contains("echoes"));
    assert_eq!(run.json()["negotiatedProtocol"], "1999-01-01");
}

#[test]
fn an_older_negotiated_version_is_fine_and_noted() {
    let run = fake("init-older-protocol", &[]);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    assert_eq!(run.codes(), Vec::<String>::new());
    assert_eq!(run.json()["negotiatedProtocol"], "2025-03-26");
    let mut text_args = crate::util::FAST.to_vec();
    text_args.retain(|a| *a != "--json");
    let text = crate::util::check_fake("init-older-protocol", &text_args, crate::util::DEADLINE);
    assert!(
        text.stdout.contains(
            "protocol: 2025-03-26 (requested 2025-11-25; the server chose an older version"
        ),
        "{}",
        text.stdout
    );
}

#[test]
fn missing_capabilities_stop_the_handshake() {
    fails_with(
        "init-no-capabilities",
        &[],
        "initialize-missing-capabilities",
    );
}

#[test]
fn a_capability_that_is_not_an_object_is_invalid() {
    fails_with(
        "init-bad-capabilities",
        &[],
        "initialize-invalid-capabilities",
    );
}

#[test]
fn missing_server_info_is_an_error_as_the_schema_requires_it() {
    // InitializeResult.serverInfo is required in every 2025-era schema:
    // a MUST, so an error; the session still goes on.
    let run = fails_with("init-no-server-info", &[], "initialize-missing-server-info");
    assert_eq!(run.json()["initialized"], true);
}

#[test]
fn invalid_server_info_is_an_error() {
    fails_with(
        "init-bad-server-info",
        &[],
        "initialize-invalid-server-info",
    );
}

// JSON-RPC invariants.

#[test]
fn a_second_response_to_one_request_is_an_error() {
    let run = fails_with(
        "duplicate-response",
        &["--era", "legacy"],
        "response-duplicate",
    );
    assert_eq!(run.issue("response-duplicate")["line"], 3);
}

#[test]
fn a_batch_is_an_error_except_under_2025_03_26() {
    let run = fails_with("batch-response", &[], "stdout-json-rpc-batch");
    // The response inside the batch still answered the probe.
    assert_eq!(run.json()["capabilityChecks"]["tools"]["itemCount"], 1);
    warns_with(
        "batch-response",
        &["--protocol", "2025-03-26"],
        "stdout-json-rpc-batch",
    );
}

#[test]
fn a_null_id_on_a_parse_error_is_a_warning() {
    warns_with("parse-error-null-id", &[], "response-id-null");
}

#[test]
fn a_server_reusing_its_own_request_id_is_an_error() {
    fails_with("server-id-reuse", &[], "server-request-id-reused");
}

// Server-to-client traffic.

#[test]
fn an_undeclared_capability_request_is_an_error_from_2025_06_18() {
    let run = fails_with(
        "sampling-request",
        &[],
        "server-request-undeclared-capability",
    );
    // The session went on: the probe after it was answered.
    assert_eq!(run.json()["capabilityChecks"]["tools"]["responded"], true);
    warns_with(
        "sampling-request",
        &["--protocol", "2025-03-26"],
        "server-request-undeclared-capability",
    );
}

#[test]
fn a_request_before_the_initialize_response_is_a_warning() {
    let run = fake("roots-request", &[]);
    expect(&run, "server-request-before-initialize", "warning", MP);
    expect(&run, "server-request-undeclared-capability", "error", MP);
    // The guard answered, so the server went on to answer initialize.
    assert_eq!(run.json()["initialized"], true);
}

#[test]
fn log_notifications_need_the_logging_capability() {
    fails_with("log-without-capability", &[], "logging-without-capability");
}

#[test]
fn progress_for_a_token_never_sent_is_an_error() {
    fails_with("progress-unknown-token", &[], "progress-unknown-token");
}

// Capability probes.

#[test]
fn every_advertised_list_is_probed_and_every_page_followed() {
    let run = fake("catalog-full", &[]);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    assert_eq!(run.codes(), Vec::<String>::new());
    let j = run.json();
    assert_eq!(j["capabilityProbes"], true);
    assert_eq!(
        j["capabilityKeys"],
        json!(["logging", "prompts", "resources", "tools"])
    );
    let c = &j["capabilityChecks"];
    assert_eq!(c["tools"]["itemCount"], 2);
    assert_eq!(c["tools"]["pages"], 2);
    assert_eq!(c["resources"]["itemCount"], 1);
    assert_eq!(c["resourceTemplates"]["itemCount"], 1);
    assert_eq!(c["prompts"]["itemCount"], 1);
    let caps = &j["checks"]["capabilities"];
    assert_eq!(caps["status"], "pass");
    for key in ["tools", "resources", "resourceTemplates", "prompts"] {
        assert_eq!(caps[key]["status"], "pass", "{key}");
        assert_eq!(caps[key]["advertised"], true, "{key}");
    }
    assert_eq!(j["toolSchema"]["toolNames"], json!(["echo", "add"]));
    assert_eq!(j["toolSchema"]["validToolCount"], 2);
    assert_eq!(j["checks"]["toolSchema"]["status"], "pass");
}

#[test]
fn unadvertised_lists_are_skipped_with_a_reason() {
    let run = fake("ok", &[]);
    let caps = &run.json()["checks"]["capabilities"];
    assert_eq!(caps["status"], "pass");
    assert_eq!(caps["prompts"]["status"], "skipped");
    assert_eq!(caps["prompts"]["reason"], "not advertised");
    assert_eq!(caps["prompts"]["itemCount"], serde_json::Value::Null);
}

#[test]
fn probes_can_be_turned_off() {
    let run = fake("list-timeout", &["--no-capability-probes"]);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    let j = run.json();
    assert_eq!(j["capabilityProbes"], false);
    assert_eq!(j["fingerprint"]["capabilityProbes"], false);
    assert_eq!(j["checks"]["capabilities"]["status"], "skipped");
    assert_eq!(j["checks"]["toolSchema"]["status"], "skipped");
}

#[test]
fn an_explicit_tools_list_request_is_not_probed_again() {
    let run = fake("ok", &["--era", "legacy", "--request", "tools/list"]);
    let j = run.json();
    assert_eq!(j["capabilityChecks"]["tools"]["pages"], 1);
    assert_eq!(j["capabilityChecks"]["tools"]["itemCount"], 1);
    // initialize, tools/list: two responses, no third.
    assert_eq!(j["frames"].as_array().map(Vec::len), Some(2));
}

#[test]
fn an_advertised_list_answering_method_not_found_is_unsupported() {
    let run = fails_with("list-unsupported", &[], "capability-list-unsupported");
    let caps = &run.json()["checks"]["capabilities"];
    assert_eq!(caps["status"], "fail");
    assert_eq!(caps["prompts"]["status"], "fail");
    assert_eq!(caps["tools"]["status"], "pass");
}

#[test]
fn an_advertised_list_returning_an_error_fails() {
    let run = fails_with("list-error", &[], "capability-list-error");
    assert_eq!(
        run.issue("capability-list-error")["method"],
        "resources/list"
    );
}

#[test]
fn an_advertised_list_that_never_answers_times_out_and_the_rest_goes_on() {
    let run = fails_with(
        "list-timeout",
        &["--timeout", "300"],
        "capability-list-timeout",
    );
    assert_eq!(
        run.issue("capability-list-timeout")["method"],
        "prompts/list"
    );
    assert_eq!(
        run.json()["checks"]["capabilities"]["tools"]["status"],
        "pass"
    );
}

#[test]
fn an_exit_during_a_probe_is_a_missing_response() {
    fails_with("list-exit", &[], "capability-list-missing-response");
}

#[test]
fn a_looping_cursor_is_caught_and_not_followed_forever() {
    let run = fails_with("cursor-loop", &[], "capability-list-invalid-cursor");
    assert_eq!(pages(&run, "tools"), 2);
}

#[test]
fn a_null_cursor_is_invalid() {
    fails_with("cursor-null", &[], "capability-list-invalid-cursor");
}

#[test]
fn resource_templates_method_not_found_is_only_a_warning() {
    warns_with(
        "templates-unsupported",
        &[],
        "resource-templates-list-unsupported",
    );
}

// Catalog checks.

#[test]
fn a_tools_result_without_a_tools_array_is_invalid() {
    fails_with("tools-bad-result", &[], "tools-list-invalid-result");
}

#[test]
fn duplicate_tool_names_are_errors() {
    let run = fails_with("tools-duplicate", &[], "tool-name-duplicate");
    let issue = run.issue("tool-name-duplicate");
    assert_eq!(
        issue["message"],
        "tools/list returned duplicate tool name \"echo\""
    );
    assert_eq!(issue["toolIndex"], 1);
    assert_eq!(issue["firstToolIndex"], 0);
    assert_eq!(run.json()["toolSchema"]["duplicateNames"], json!(["echo"]));
}

#[test]
fn an_empty_tool_name_is_an_error() {
    fails_with("tool-name-empty", &[], "tool-name-invalid");
}

#[test]
fn a_tool_name_outside_the_recommended_characters_is_a_warning() {
    warns_with("tool-name-spaces", &[], "tool-name-invalid");
}

#[test]
fn a_tool_without_input_schema_is_an_error() {
    let run = fails_with("tool-no-schema", &[], "tool-input-schema-invalid");
    assert_eq!(run.json()["toolSchema"]["validToolCount"], 0);
}

#[test]
fn a_required_property_that_is_not_defined_is_an_error() {
    let run = fails_with(
        "tool-required-missing",
        &[],
        "tool-input-schema-required-missing",
    );
    let issue = run.issue("tool-input-schema-required-missing");
    assert_eq!(issue["propertyName"], "query");
    assert_eq!(issue["schemaPath"], "inputSchema");
}

#[test]
fn a_missing_tool_description_is_a_warning() {
    warns_with("tool-no-description", &[], "tool-description-missing");
}

#[test]
fn an_output_schema_that_is_not_an_object_schema_is_an_error() {
    fails_with("tool-bad-output-schema", &[], "tool-output-schema-invalid");
}

#[test]
fn a_resource_without_uri_is_an_error() {
    fails_with("bad-resource", &[], "resource-invalid");
}

#[test]
fn a_resource_template_without_name_is_an_error() {
    fails_with("bad-template", &[], "resource-template-invalid");
}

#[test]
fn a_prompt_argument_without_name_is_an_error() {
    fails_with("bad-prompt", &[], "prompt-invalid");
}

/// One silence, one wait, one finding (issue 38): a server that answers
/// initialize and then nothing gets one request that waits its timeout;
/// the capability probes that would wait on the same silence are not sent,
/// and the one finding names them.
#[test]
fn a_silent_server_costs_one_wait_and_one_finding() {
    for (extra, code) in [
        (&["--request", "tools/list"][..], "operation-timeout"),
        (&[][..], "capability-list-timeout"),
    ] {
        let dir = crate::util::temp_dir("silence");
        let transcript = dir.join("t.jsonl");
        let mut args = vec!["--timeout", "1000", "--transcript"];
        let t = transcript.to_string_lossy().to_string();
        args.push(&t);
        args.extend_from_slice(extra);
        let run = crate::util::fake("silent-after-initialize", &args);
        let timeouts: Vec<String> = run
            .codes()
            .into_iter()
            .filter(|c| c.ends_with("-timeout"))
            .collect();
        assert_eq!(timeouts, vec![code.to_string()], "{}", run.stdout);
        let issue = run.issue(code);
        assert_eq!(
            issue["skippedProbes"].as_array().map(Vec::len),
            Some(if extra.is_empty() { 3 } else { 4 }),
            "{issue}"
        );
        // After the handshake, one request was sent and waited on.
        let text = std::fs::read_to_string(&transcript).expect("transcript");
        let requests = text
            .lines()
            .filter(|l| l.contains("\"direction\":\"out\""))
            .filter(|l| l.contains("/list"))
            .count();
        assert_eq!(requests, 1, "{text}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
