//! Lesson 21: reading data sets from CSV text and files.
// Without the `flate2` feature the tests that read gzip files are left out, and the
// functions that only they use with them.
#![cfg_attr(not(feature = "flate2"), allow(unused_imports, dead_code))]

use std::io::Write;
use std::path::PathBuf;

#[path = "common/parse_failure.rs"]
mod parse_failure;
use parse_failure::parse_failure;

use flate2::write::GzEncoder;
use flate2::Compression;
use micrograd::data::{load_csv, moons100, parse_csv, Loader, DEFAULT_MAX_INFLATED};
use micrograd::Error;

// X, y = make_moons(n_samples=100, noise=0.1); y = y*2 - 1
#[test]
fn moons100_is_the_notebooks_hundred_points() {
    let data = moons100();
    assert_eq!((data.len(), data.width()), (100, 2));
    assert!(data.inputs.iter().all(|row| row.len() == 2));
    // make_moons puts n/2 points on each moon.
    assert_eq!(data.labels.iter().filter(|&&y| y == 1.0).count(), 50);
    assert_eq!(data.labels.iter().filter(|&&y| y == -1.0).count(), 50);
    // The first data line of moons100.csv as numpy wrote it (src/data/moons100.csv).
    assert_eq!(
        data.inputs[0],
        vec![1.1221146075409685, 0.08147717341718697]
    );
    assert_eq!(data.labels[0], -1.0);
}

#[test]
fn a_header_with_names_is_skipped() {
    let data = parse_csv("x0,x1,y\n1,2,3\n", "t.csv").unwrap();
    assert_eq!(data.inputs, vec![vec![1.0, 2.0]]);
    assert_eq!(data.labels, vec![3.0]);
}

#[test]
fn a_header_with_another_number_of_fields_than_the_rows_is_an_error() {
    let (line, column, message) = parse_failure(parse_csv("x,y\n1,2,3\n", "t.csv"));
    assert_eq!((line, column), (2, 3));
    let expected = "found 3 fields but the header on line 1 has 2";
    assert!(message.contains(expected), "{message}");
}

#[test]
fn a_bad_field_names_its_line_column_and_text() {
    let (line, column, message) = parse_failure(parse_csv("1,2,3\n4,5,six\n", "t.csv"));
    assert_eq!((line, column), (2, 3));
    assert!(message.contains("`six`"), "{message}");
}

#[test]
fn a_scikit_learn_count_line_is_a_header_and_its_counts_are_checked() {
    // scikit-learn's data files start `n_samples,n_features,class names...`
    // (iris: `150,4,setosa,versicolor,virginica`).
    let iris_like = "3,4,setosa,versicolor,virginica\n\
                     5.1,3.5,1.4,0.2,0\n7.0,3.2,4.7,1.4,1\n6.3,3.3,6.0,2.5,2\n";
    let data = parse_csv(iris_like, "t.csv").unwrap();
    assert_eq!((data.len(), data.width()), (3, 4));
    assert_eq!(data.labels, vec![0.0, 1.0, 2.0]);
    // A count that does not match the rows is an error on line 1, not a silent header.
    let (line, _, message) = parse_failure(parse_csv("5,2,a,b\n1,2,0\n3,4,1\n", "t.csv"));
    assert_eq!(line, 1);
    assert!(
        message.contains("says 5 samples of 2 features"),
        "{message}"
    );
    assert!(message.contains("holds 2 rows of 2 features"), "{message}");
}

#[test]
fn a_first_line_of_numbers_only_is_data_so_a_ragged_file_is_an_error() {
    // Once read as a "1 row, 2 features" count line followed by one row.
    let (line, column, message) = parse_failure(parse_csv("1,2\n3,4,5\n", "t.csv"));
    assert_eq!((line, column), (2, 3));
    assert!(
        message.contains("found 3 fields but line 1 has 2"),
        "{message}"
    );
    let (line, _, _) = parse_failure(parse_csv("2,2\n1,2,0\n3,4,1\n", "t.csv"));
    assert_eq!(line, 2);
}

#[test]
fn a_first_line_mixing_numbers_and_names_is_an_error_not_a_dropped_row() {
    let (line, column, message) = parse_failure(parse_csv("1,x,3\n4,5,6\n", "t.csv"));
    assert_eq!((line, column), (1, 2));
    assert!(message.contains("`x` is not a number"), "{message}");
    assert!(message.contains("names only"), "{message}");
}

// Blank lines before it: the message names the line the mix is on, as the error's
// position does, not line 1.
#[test]
fn a_mixed_first_line_after_blank_lines_is_named_by_its_own_number() {
    let (line, column, message) = parse_failure(parse_csv("\n\n1,x,3\n4,5,6\n", "t.csv"));
    assert_eq!((line, column), (3, 2));
    assert!(message.contains("line 3 has numbers too"), "{message}");
}

#[test]
fn a_row_with_an_empty_last_field_is_not_a_count_line() {
    // `1,2,` once passed for "1 sample of 2 features, no names" and was dropped.
    let (line, column, message) = parse_failure(parse_csv("1,2,\n3,4,5\n", "t.csv"));
    assert_eq!((line, column), (1, 3));
    assert!(message.contains("empty field"), "{message}");
}

#[test]
fn a_first_line_of_empty_fields_is_not_a_header() {
    for text in [",,\n1,2,3\n", "x0,,y\n1,2,3\n"] {
        let (line, _, message) = parse_failure(parse_csv(text, "t.csv"));
        assert_eq!(line, 1, "{text:?}");
        assert!(message.contains("empty field"), "{message}");
    }
}

#[test]
fn a_pandas_index_column_is_an_error_that_says_how_to_save_without_it() {
    // pandas' `DataFrame.to_csv()` writes the row index first, under an empty name.
    let text = ",x0,x1,y\n0,0.5,1.0,-1\n1,2.0,3.0,1\n";
    let (line, column, message) = parse_failure(parse_csv(text, "t.csv"));
    assert_eq!((line, column), (1, 1));
    assert!(message.contains("index=False"), "{message}");
}

#[test]
fn iris_style_header_is_skipped() {
    let data = parse_csv("1,4,setosa,versicolor,virginica\n5.1,3.5,1.4,0.2,0\n", "t").unwrap();
    assert_eq!((data.len(), data.width()), (1, 4));
}

#[test]
fn an_error_quotes_at_most_40_characters_of_a_huge_field() {
    let huge = "x".repeat(5_000_000);
    let (_, _, message) = parse_failure(parse_csv(&format!("1,2\n3,{huge}\n"), "t.csv"));
    assert!(message.len() < 200, "a {}-byte message", message.len());
    assert!(
        message.starts_with(&format!("`{}…` (5000000 bytes)", "x".repeat(40))),
        "{message}"
    );
}

#[test]
fn blank_lines_spaces_and_crlf_are_accepted() {
    let data = parse_csv("\r\n 1 , 2 ,-1\r\n\r\n3,4,1\r\n", "t.csv").unwrap();
    assert_eq!(data.inputs, vec![vec![1.0, 2.0], vec![3.0, 4.0]]);
}

#[test]
fn a_short_or_long_row_is_an_error_at_its_first_wrong_column() {
    let (line, column, message) = parse_failure(parse_csv("1,2,3\n4,5\n", "t.csv"));
    assert_eq!((line, column), (2, 3));
    assert!(
        message.contains("found 2 fields but line 1 has 3"),
        "{message}"
    );
    let (line, column, _) = parse_failure(parse_csv("1,2,3\n4,5,6,7\n", "t.csv"));
    assert_eq!((line, column), (2, 4));
}

#[test]
fn empty_fields_and_non_finite_numbers_are_errors() {
    let (_, column, message) = parse_failure(parse_csv("1,2,3\n4,,6\n", "t.csv"));
    assert_eq!(column, 2);
    assert!(message.contains("empty field"), "{message}");
    let (line, column, message) = parse_failure(parse_csv("1,2,3\n4,5,NaN\n", "t.csv"));
    assert_eq!((line, column), (2, 3));
    assert!(
        message.contains("`NaN` is not a finite number"),
        "{message}"
    );
}

#[test]
fn an_empty_file_or_a_lone_header_is_an_error_that_says_so() {
    let (_, _, message) = parse_failure(parse_csv("\n\n", "t.csv"));
    assert!(message.contains("empty"), "{message}");
    let (line, _, message) = parse_failure(parse_csv("x,y\n", "t.csv"));
    assert_eq!(line, 1);
    assert!(message.contains("no data rows"), "{message}");
}

#[test]
fn a_single_column_has_no_features_and_is_an_error() {
    let (line, _, message) = parse_failure(parse_csv("1\n2\n", "t.csv"));
    assert_eq!(line, 1);
    assert!(message.contains("at least 2"), "{message}");
}

/// A fresh path in the system's temporary directory for this test process.
fn temp_path(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("micrograd-18-{}-{name}", std::process::id()))
}

#[test]
#[cfg(feature = "flate2")]
fn load_csv_reads_plain_and_gzip_files_by_their_bytes_not_their_names() {
    let text = "a,b,label\n1,2,0\n3,4,1\n";
    let plain = temp_path("plain.csv");
    std::fs::write(&plain, text).unwrap();
    // Compressed, but named like a plain file: the magic bytes 1f 8b decide.
    let gzip_path = temp_path("compressed.csv");
    std::fs::write(&gzip_path, gzip(text.as_bytes())).unwrap();

    let from_plain = load_csv(&plain).unwrap();
    let from_gzip = load_csv(&gzip_path).unwrap();
    assert_eq!(from_plain, from_gzip);
    assert_eq!(from_plain.labels, vec![0.0, 1.0]);
    std::fs::remove_file(plain).unwrap();
    std::fs::remove_file(gzip_path).unwrap();
}

/// `text`, gzip-compressed.
fn gzip(text: &[u8]) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
    encoder.write_all(text).unwrap();
    encoder.finish().unwrap()
}

#[test]
#[cfg(feature = "flate2")]
fn a_gzip_file_inflates_to_at_most_the_loaders_limit() {
    // 10,000 rows of `0,0` (40,000 bytes) compress to well under 1 KB: a small bomb.
    let path = temp_path("bomb.csv.gz");
    std::fs::write(&path, gzip("0,0\n".repeat(10_000).as_bytes())).unwrap();
    let (line, _, message) = parse_failure(Loader::new().max_inflated(39_999).load_csv(&path));
    assert_eq!(line, 0);
    assert!(message.contains("more than 39999 bytes"), "{message}");
    assert!(message.contains("max_inflated"), "{message}");
    // Exactly at the limit is fine, and so is the default.
    assert_eq!(
        Loader::new()
            .max_inflated(40_000)
            .load_csv(&path)
            .unwrap()
            .len(),
        10_000
    );
    assert_eq!(load_csv(&path).unwrap().len(), 10_000);
    assert_eq!(
        Loader::default(),
        Loader::new().max_inflated(DEFAULT_MAX_INFLATED)
    );
    std::fs::remove_file(path).unwrap();
}

#[test]
fn load_csv_errors_name_the_file() {
    let path = temp_path("bad.csv");
    std::fs::write(&path, "1,2,3\n4,5,z\n").unwrap();
    let err = load_csv(&path).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("{}:2:3: `z` is not a number", path.display())
    );
    std::fs::remove_file(path).unwrap();
}

#[test]
fn a_missing_file_is_an_io_error_whose_source_says_why() {
    use std::error::Error as _;
    let path = temp_path("does-not-exist.csv");
    let err = load_csv(&path).unwrap_err();
    assert!(matches!(err, Error::Io { .. }), "{err:?}");
    // The OS error is the source, not also in the message: `anyhow` prints it once.
    assert_eq!(err.to_string(), format!("cannot read {}", path.display()));
    let source = err.source().expect("the OS error");
    assert_eq!(
        source.to_string(),
        std::fs::read(&path).unwrap_err().to_string()
    );
}

#[test]
fn broken_gzip_and_non_utf8_text_are_parse_errors() {
    let path = temp_path("broken.csv.gz");
    std::fs::write(&path, [0x1f, 0x8b, 1, 2, 3]).unwrap();
    let (_, _, message) = parse_failure(load_csv(&path));
    #[cfg(feature = "flate2")]
    assert!(message.contains("does not decompress"), "{message}");
    #[cfg(not(feature = "flate2"))]
    assert!(
        message.contains("without its `flate2` feature"),
        "{message}"
    );
    std::fs::write(&path, b"1,2,3\n4,\xff,6\n").unwrap();
    let (line, column, message) = parse_failure(load_csv(&path));
    assert_eq!((line, column), (2, 2));
    assert!(message.contains("0xff"), "{message}");
    std::fs::remove_file(path).unwrap();
}
