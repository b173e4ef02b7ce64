/// The version `cdqi --version` prints. Kept in one place so releases change one line.
let cdqiVersion = "0.1.0"
