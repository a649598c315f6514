"""Scenario results as a JUnit XML report, the format CI systems read (one testcase a file)."""

import xml.etree.ElementTree as ET


def report(results, suite="cheeseboard scenarios"):
    """The XML text of a <testsuites> with one <testcase> per scenario file."""
    failures = sum(not r.passed for r in results)
    root = ET.Element("testsuites", name=suite, tests=str(len(results)), failures=str(failures))
    cases = ET.SubElement(root, "testsuite", name=suite, tests=str(len(results)),
                          failures=str(failures), errors="0",
                          time="%.3f" % sum(r.seconds for r in results))
    for r in results:
        case = ET.SubElement(cases, "testcase", classname="scenario.%s" % r.path.stem,
                             name=r.name or r.path.name, file=str(r.path),
                             time="%.3f" % r.seconds)
        if not r.passed:
            failure = ET.SubElement(case, "failure", message=r.failure,
                                    type="step %d" % r.step if r.step else "scenario")
            failure.text = r.line()
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def write(path, results):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(report(results))
