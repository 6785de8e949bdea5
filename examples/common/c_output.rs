//! The flags of the examples that write C (`09_codegen`, `11_microcontroller`): where it
//! goes, its number type, the host's C compiler.

use std::path::PathBuf;

use micrograd::codegen::Precision;

use super::Result;

/// `--out DIR`, `--precision f64|f32`, `--cc CC`.
pub struct COutput {
    /// `--out DIR`: where the C is written and compiled.
    pub out: PathBuf,
    /// `--precision f64|f32`: the C's number type.
    pub precision: Precision,
    /// `--cc CC`: the host's C compiler [`cc`].
    pub cc: String,
}

impl COutput {
    /// Reads the three flags, with `out` and `precision` their defaults.
    pub fn from_args(
        args: &mut pico_args::Arguments,
        default_out: &str,
        precision: Precision,
    ) -> Result<COutput> {
        let out: Option<PathBuf> = args.opt_value_from_str("--out")?;
        let precision = match args
            .opt_value_from_str::<_, String>("--precision")?
            .as_deref()
        {
            None => precision,
            Some("f64") => Precision::F64,
            Some("f32") => Precision::F32,
            Some(other) => return Err(format!("--precision {other:?}: expected f64 or f32").into()),
        };
        let cc: Option<String> = args.opt_value_from_str("--cc")?;
        Ok(COutput {
            out: out.unwrap_or_else(|| PathBuf::from(default_out)),
            precision,
            cc: cc.unwrap_or_else(|| "cc".to_owned()),
        })
    }
}
