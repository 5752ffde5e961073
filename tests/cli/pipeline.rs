//! `show` prints the filter pipeline (with filter meta), splitmode, use_dict, nchunks
//! and cratio as python-blosc2 4.14.1 reports them (`cparams`, `nchunks`, `cratio`,
//! `.info`) for every producer fixture: tests/data/producers/info.json, written by
//! tests/data/producers/info.py.

use super::run;

#[test]
fn show_prints_the_pipeline_python_reports() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/producers");
    let info: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{dir}/info.json")).unwrap())
            .unwrap();
    let files = info.as_object().unwrap();
    assert_eq!(files.len(), 60);
    // One run for all the files in JSON, one in --human.
    let paths: Vec<String> = files.keys().map(|rel| format!("{dir}/{rel}")).collect();
    let json = run(["show".to_owned()].into_iter().chain(paths.iter().cloned()));
    json.assert_ok();
    let human = run(["show".to_owned(), "--human".to_owned()]
        .into_iter()
        .chain(paths.iter().cloned()));
    human.assert_ok();
    let shown = json.json_lines();
    assert_eq!(shown.len(), files.len());
    let human_lines: Vec<&str> = human.stdout.lines().collect();
    for ((rel, python), report) in files.iter().zip(&shown) {
        assert!(
            python.get("error").is_none(),
            "{rel}: python opens every fixture"
        );
        let frame = &report["frame"];
        assert_eq!(report["path"], format!("{dir}/{rel}"));
        assert_eq!(frame["codec_code"], python["codec"], "{rel}");
        for key in [
            "codec_meta",
            "clevel",
            "use_dict",
            "splitmode",
            "filters",
            "filters_meta",
            "nchunks",
            "nbytes",
            "cbytes",
            "cratio",
        ] {
            assert_eq!(frame[key], python[key], "{rel}: {key}");
        }
        // --human: the same ratio as python's `.info` prints it ("4.65x").
        let header_line = human_lines
            .iter()
            .position(|l| l.starts_with(&format!("{dir}/{rel}: ")))
            .unwrap_or_else(|| panic!("{rel} not in --human"));
        let pipeline = human_lines[header_line];
        let cratio = python["info_cratio"].as_str().unwrap();
        assert!(
            pipeline.ends_with(&format!(", cratio {cratio}")),
            "{rel}: {pipeline}"
        );
        let nchunks = python["nchunks"].as_u64().unwrap();
        let chunks = if nchunks == 1 {
            "1 chunk".to_owned()
        } else {
            format!("{nchunks} chunks")
        };
        assert!(pipeline.contains(&chunks), "{rel}: {pipeline}");
        assert!(
            pipeline.contains(", filters shuffle, split "),
            "{rel}: {pipeline}"
        );
    }
}
