extension NewScanner {
    /// Checks the name, when one is given; the ID was checked when it was decoded.
    public func validate() throws(ValidationError) {
        if let name { try validateName(name, field: "name") }
    }
}
