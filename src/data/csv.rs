//! Numeric CSV files: features in every column but the last, the label in the last.

use std::path::Path;

use super::{parse_error, Dataset, Loader};
use crate::error::quote;
use crate::Error;

/// Reads a numeric CSV file, plain or gzip-compressed, into a [`Dataset`].
///
/// Gzip is recognised by the file's first two bytes (`1f 8b`), not by its name. The text
/// must be UTF-8 and is read as [`parse_csv`] describes: features in every column but the
/// last, the label in the last, an optional header line, blank lines skipped.
///
/// # Errors
///
/// [`Error::Io`] if the file cannot be read; [`Error::Parse`] (with line and column, both
/// from 1) for anything [`parse_csv`] rejects, for text that is not UTF-8, and for gzip
/// data that does not decompress or inflates to more than
/// [`DEFAULT_MAX_INFLATED`](super::DEFAULT_MAX_INFLATED) bytes (a [`Loader`] sets another
/// limit).
///
/// ```
/// let path = std::env::temp_dir().join(format!("micrograd-doc-{}.csv", std::process::id()));
/// std::fs::write(&path, "x,y,label\n1,2,1\n3,4,-1\n").unwrap();
/// let data = micrograd::data::load_csv(&path)?;
/// assert_eq!((data.len(), data.width()), (2, 2));
/// # std::fs::remove_file(&path).unwrap();
/// # Ok::<(), micrograd::Error>(())
/// ```
pub fn load_csv(path: impl AsRef<Path>) -> Result<Dataset, Error> {
    Loader::new().load_csv(path)
}

impl Loader {
    /// [`load_csv`] with this loader's limit on what a gzip file inflates to.
    ///
    /// # Errors
    ///
    /// As [`load_csv`].
    pub fn load_csv(&self, path: impl AsRef<Path>) -> Result<Dataset, Error> {
        let path = path.as_ref();
        let bytes = self.read_maybe_gz(path)?;
        let text = std::str::from_utf8(&bytes).map_err(|e| {
            let before = &bytes[..e.valid_up_to()];
            let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
            let this_line = before.iter().rev().take_while(|&&b| b != b'\n');
            let column = 1 + this_line.filter(|&&b| b == b',').count();
            let message = format!("byte {:#04x} is not UTF-8 text", bytes[e.valid_up_to()]);
            parse_error(path, line, column, message)
        })?;
        parse_csv(text, path)
    }
}

/// Parses numeric CSV text into a [`Dataset`]; `name` is the file name errors report.
///
/// The format:
/// - fields are separated by `,` and may have spaces around them; quoting is not supported
///   (every field must be a number);
/// - every column but the last is a feature, the last is the label;
/// - blank lines are skipped, and so is a leading byte-order mark;
/// - every data line has the same number of fields as the first one (or as a header of
///   names, if there is one), at least two, each a finite number: a ragged file, or rows
///   that do not match their header, is an error naming its first wrong line.
///
/// The first non-blank line may be a **header**, which is skipped. The rule:
/// - a line of numbers only is data, never a header (so `1,2\n3,4,5\n` is a ragged file,
///   an error on line 2, not a count line followed by one row);
/// - a line of names only (no field is a number, e.g. `x0,x1,y`) is a header; an empty
///   field is not a name (`,,` or `x0,,y` is an error), and a header whose first name
///   alone is empty (`,x0,x1,y`) is pandas' row index, an error saying to save with
///   `index=False`;
/// - scikit-learn's count line is a header: two whole numbers then names only, e.g. iris's
///   `150,4,setosa,versicolor,virginica` (a name is not empty: `1,2,` is a data row
///   missing its last number, an error). Its counts are checked: the file must then hold
///   exactly `150` data rows of `4` features (and the label), or it is an error on the
///   count line;
/// - any other mix of numbers and names on the first line is an error naming the first
///   field that is not a number (a typo in the first data row is not silently dropped).
///
/// # Errors
///
/// [`Error::Parse`] naming the line and the column (both counting from 1; the column is
/// the field's position) and quoting the offending text (its first 40 characters): a
/// field that is not a finite number, a row with the wrong number of fields, a header
/// that breaks the rule above, a file with no data rows.
///
/// ```
/// let text = "x0,x1,y\n0.5,1.0,-1\n\n2,3,1\n";
/// let data = micrograd::data::parse_csv(text, "points.csv")?;
/// assert_eq!(data.inputs, vec![vec![0.5, 1.0], vec![2.0, 3.0]]);
/// assert_eq!(data.labels, vec![-1.0, 1.0]);
///
/// let err = micrograd::data::parse_csv("1,2,3\n4,x,6\n", "bad.csv").unwrap_err();
/// assert_eq!(err.to_string(), "bad.csv:2:2: `x` is not a number");
/// let err = micrograd::data::parse_csv("1,2\n3,4,5\n", "ragged.csv").unwrap_err();
/// assert!(err.to_string().starts_with("ragged.csv:2:3: found 3 fields but line 1 has 2"));
/// # Ok::<(), micrograd::Error>(())
/// ```
pub fn parse_csv(text: &str, name: impl AsRef<Path>) -> Result<Dataset, Error> {
    let path = name.as_ref();
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = (1..)
        .zip(text.lines())
        .filter(|(_, line)| !line.trim().is_empty())
        .peekable();
    let Some(&(first_line, first)) = lines.peek() else {
        return Err(parse_error(path, 0, 0, "the file is empty: no data rows"));
    };
    let header = classify_first_line(first, first_line)
        .map_err(|(column, message)| parse_error(path, first_line, column, message))?;
    if header != FirstLine::Data {
        lines.next();
    }
    let Some(&(row_line, row)) = lines.peek() else {
        let message = format!("no data rows: line {first_line} is a header and nothing follows");
        return Err(parse_error(path, first_line, 0, message));
    };
    // Every row has as many fields as a header of names, or else as the first row.
    let (width_line, width_text, width_from) = match header {
        FirstLine::Names => (
            first_line,
            first,
            format!("the header on line {first_line}"),
        ),
        _ => (row_line, row, format!("line {row_line}")),
    };
    let width = width_text.split(',').count();
    if width < 2 {
        let message = format!(
            "{} has 1 field but a row needs at least 2 (features, then the label)",
            quote(width_text.trim())
        );
        return Err(parse_error(path, width_line, 0, message));
    }
    let mut data = Dataset::default();
    for (line, text) in lines {
        let mut values = parse_row(text, width, &width_from)
            .map_err(|(column, message)| parse_error(path, line, column, message))?;
        data.labels.extend(values.pop());
        data.inputs.push(values);
    }
    if let FirstLine::Counts { samples, features } = header {
        if (samples, features) != (data.len(), width - 1) {
            let message = format!(
                "the header says {samples} samples of {features} features (scikit-learn's \
                 `n_samples,n_features,...` line) but the file holds {} rows of {} features; \
                 correct the counts or the rows",
                data.len(),
                width - 1
            );
            return Err(parse_error(path, first_line, 1, message));
        }
    }
    Ok(data)
}

/// What the first non-blank line of a CSV file is (see [`parse_csv`] for the rule).
#[derive(Clone, Copy, Debug, PartialEq)]
enum FirstLine {
    /// Numbers only: the first data row.
    Data,
    /// Names only: a header.
    Names,
    /// scikit-learn's `n_samples,n_features,name,...`: a header whose counts must match.
    Counts { samples: usize, features: usize },
}

/// Which [`FirstLine`] `line` is, or the 1-based column and message of a mix of numbers
/// and names that is neither; `number` is the line's number in the file (after blank
/// lines it is not 1), which the message names.
fn classify_first_line(line: &str, number: usize) -> Result<FirstLine, (usize, String)> {
    let fields: Vec<&str> = line.split(',').map(str::trim).collect();
    let is_number = |field: &str| field.parse::<f64>().is_ok();
    let numbers = fields.iter().filter(|f| is_number(f)).count();
    if numbers == fields.len() {
        return Ok(FirstLine::Data);
    }
    if numbers == 0 {
        if let ["", names @ ..] = fields.as_slice() {
            if !names.is_empty() && names.iter().all(|f| !f.is_empty()) {
                let message = "the header's first name is empty, as pandas writes over its \
                               row index (`DataFrame.to_csv()`), which would be read as a \
                               feature: save with `to_csv(path, index=False)`, or drop the \
                               first column";
                return Err((1, message.to_owned()));
            }
        }
        // An empty field is not a name (`,,` is no header).
        if let Some(i) = fields.iter().position(|f| f.is_empty()) {
            let message = format!(
                "an empty field in a header of names (field {}): name every column, e.g. \
                 `x0,x1,y`, or remove the line",
                i + 1
            );
            return Err((i + 1, message));
        }
        return Ok(FirstLine::Names);
    }
    if let [samples, features, names @ ..] = fields.as_slice() {
        let counts = (samples.parse::<usize>(), features.parse::<usize>());
        if let (Ok(samples), Ok(features)) = counts {
            // Each name a name: an empty field (`1,2,`) is a data row's missing number.
            let is_name = |f: &&str| !f.is_empty() && !is_number(f);
            if !names.is_empty() && names.iter().all(is_name) {
                return Ok(FirstLine::Counts { samples, features });
            }
        }
    }
    let (i, name) = (fields.iter().enumerate())
        .find(|(_, field)| !is_number(field))
        .unwrap_or((0, &""));
    let what = if name.is_empty() {
        "an empty field".to_owned()
    } else {
        format!("{} is not a number", quote(name))
    };
    let message = format!(
        "{what}, but line {number} has numbers too: a header must be names only (`x0,x1,y`) or \
         scikit-learn's `n_samples,n_features,names...`; fix the header or the data row"
    );
    Err((i + 1, message))
}

/// The `width` numbers of one row, or the 1-based column and message of the first problem;
/// `width_from` names the line the expected width was taken from (`line 2`).
fn parse_row(text: &str, width: usize, width_from: &str) -> Result<Vec<f64>, (usize, String)> {
    let count = text.split(',').count();
    if count != width {
        let message = format!(
            "found {count} fields but {width_from} has {width}; every row needs the same \
             number"
        );
        return Err((count.min(width) + 1, message));
    }
    text.split(',')
        .enumerate()
        .map(|(i, field)| parse_number(field.trim()).map_err(|m| (i + 1, m)))
        .collect()
}

/// One field as a finite `f64`.
fn parse_number(field: &str) -> Result<f64, String> {
    match field.parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        Ok(_) => Err(format!("{} is not a finite number", quote(field))),
        Err(_) if field.is_empty() => Err("empty field where a number was expected".to_owned()),
        Err(_) => Err(format!("{} is not a number", quote(field))),
    }
}
