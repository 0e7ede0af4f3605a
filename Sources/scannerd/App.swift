@main struct ScannerdMain { static func main() {} }
