@main struct SwitchdMain { static func main() {} }
