package gpulog

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
)

// nvidia-smi -q -x: one <nvidia_smi_log> document per sample, or several
// concatenated when a loop appends them to one file. The file is cut into
// documents at their closing tags and each is decoded on its own, so a
// truncated or corrupt document is skipped (counted in SkippedLines as one
// document, with its first line in Problems) without losing the others.
//
// Each <gpu> gives one GPUSample: its index is its position in the
// document (nvidia-smi lists GPUs in index order), fb_memory_usage gives
// total, reserved (DTD v12+), used and free; utilization, and the power
// draw from power_readings (up to DTD v11) or gpu_power_readings (v12+,
// power_draw or instant_power_draw). <timestamp> is zoneless local time.
// <processes> give ProcessSample readings (Windows reports used_memory as
// N/A: Unknown); <mig_devices> give MIGSample readings. Values "N/A" and
// missing elements are Unknown (bytes) or NaN.

// maxXMLDocument bounds one XML document, in bytes.
const maxXMLDocument = 16 << 20

type xmlLog struct {
	Timestamp string   `xml:"timestamp"`
	Driver    string   `xml:"driver_version"`
	GPUs      []xmlGPU `xml:"gpu"`
}

type xmlGPU struct {
	ID        string    `xml:"id,attr"`
	Name      string    `xml:"product_name"`
	UUID      string    `xml:"uuid"`
	FB        xmlMemory `xml:"fb_memory_usage"`
	GPUUtil   string    `xml:"utilization>gpu_util"`
	MemUtil   string    `xml:"utilization>memory_util"`
	PowerV11  string    `xml:"power_readings>power_draw"`
	PowerV12  string    `xml:"gpu_power_readings>power_draw"`
	PowerInst string    `xml:"gpu_power_readings>instant_power_draw"`
	MIG       []xmlMIG  `xml:"mig_devices>mig_device"`
	Processes []xmlProc `xml:"processes>process_info"`
}

type xmlMemory struct {
	Total    string `xml:"total"`
	Reserved string `xml:"reserved"`
	Used     string `xml:"used"`
	Free     string `xml:"free"`
}

type xmlMIG struct {
	Index string    `xml:"index"`
	GI    string    `xml:"gpu_instance_id"`
	CI    string    `xml:"compute_instance_id"`
	FB    xmlMemory `xml:"fb_memory_usage"`
}

type xmlProc struct {
	PID  string `xml:"pid"`
	Name string `xml:"process_name"`
	Used string `xml:"used_memory"`
}

func readXML(r io.Reader, b *logBuilder) error {
	lr := b.lines(r)
	var doc bytes.Buffer
	start, oversize := 0, false
	flush := func() {
		if start == 0 {
			return
		}
		if oversize {
			b.skip(start, "XML document too large", fmt.Sprintf("more than %d bytes", maxXMLDocument))
		} else if strings.TrimSpace(doc.String()) != "" {
			b.xmlDocument(start, doc.Bytes())
		}
		doc.Reset()
		start, oversize = 0, false
	}
	for {
		line, ok := lr.next()
		if !ok {
			break
		}
		if lr.nuls > 0 && strings.TrimSpace(line) == "" {
			b.skip(lr.n, kindNUL, nulReason(lr.nuls))
			continue
		}
		opens := strings.Contains(line, "<?xml") || strings.Contains(line, "<nvidia_smi_log")
		if opens && start > 0 && bytes.Contains(doc.Bytes(), []byte("<nvidia_smi_log")) {
			// A new document starts before the previous one closed.
			flush()
		}
		if start == 0 {
			if strings.TrimSpace(line) == "" {
				continue
			}
			start = lr.n
		}
		if doc.Len()+len(line) > maxXMLDocument || lr.long {
			oversize = true
		}
		if !oversize {
			doc.WriteString(line)
			doc.WriteByte('\n')
		}
		if strings.Contains(line, "</nvidia_smi_log>") {
			flush()
		}
	}
	if lr.err != nil {
		return fmt.Errorf("line %d: %w", lr.n+1, lr.err)
	}
	flush()
	return nil
}

// xmlDocument decodes one document starting at line start.
func (b *logBuilder) xmlDocument(start int, data []byte) {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Entity = xml.HTMLEntity
	d.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
	found := false
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			b.skip(start+xmlErrLine(err), kindBadXML, xmlErrText(err))
			return
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		if se.Name.Local != "nvidia_smi_log" {
			b.skip(start, kindBadXML, fmt.Sprintf("root element <%s>, not <nvidia_smi_log>", clip(se.Name.Local)))
			return
		}
		var doc xmlLog
		if err := d.DecodeElement(&doc, &se); err != nil {
			line, _ := d.InputPos()
			b.skip(start+line-1, kindBadXML, xmlErrText(err))
			return
		}
		found = true
		b.xmlLog(start, &doc)
	}
	if !found {
		b.skip(start, kindBadXML, "no <nvidia_smi_log> element")
	}
}

func xmlErrLine(err error) int {
	var se *xml.SyntaxError
	if errors.As(err, &se) && se.Line > 0 {
		return se.Line - 1
	}
	return 0
}

func xmlErrText(err error) string {
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		if se.Msg == "unexpected EOF" {
			return "cut off before its end (unexpected end of file)"
		}
		return se.Msg
	}
	return err.Error()
}

// xmlLog turns one decoded document into readings.
func (b *logBuilder) xmlLog(line int, doc *xmlLog) {
	if b.log.Driver == "" {
		b.log.Driver = strings.TrimSpace(doc.Driver)
	}
	t, ok := b.time(doc.Timestamp)
	if !ok && strings.TrimSpace(doc.Timestamp) != "" {
		b.note(fmt.Sprintf("line %d: XML <timestamp> %q is not a time; that document's readings are undated", line, clip(doc.Timestamp)))
	}
	for i, g := range doc.GPUs {
		s := GPUSample{
			Time:              t,
			GPU:               i,
			MemoryTotal:       xmlBytes(g.FB.Total),
			MemoryUsed:        xmlBytes(g.FB.Used),
			MemoryFree:        xmlBytes(g.FB.Free),
			MemoryReserved:    xmlBytes(g.FB.Reserved),
			UtilizationGPU:    xmlNumber(g.GPUUtil, "%"),
			UtilizationMemory: xmlNumber(g.MemUtil, "%"),
			PowerW:            xmlNumber(g.PowerV11, "W"),
		}
		if math.IsNaN(s.PowerW) {
			s.PowerW = xmlNumber(g.PowerV12, "W")
		}
		if math.IsNaN(s.PowerW) {
			s.PowerW = xmlNumber(g.PowerInst, "W")
		}
		dev := GPU{Index: i, UUID: xmlText(g.UUID), BusID: normBusID(g.ID), Name: xmlText(g.Name), MemoryTotal: max(s.MemoryTotal, 0)}
		if why := b.device(dev); why != "" {
			b.skip(line, kindOtherGPU, why)
			continue
		}
		b.log.Samples = append(b.log.Samples, s)
		for _, m := range g.MIG {
			ms := MIGSample{Time: t, GPU: i, MIG: xmlInt(m.Index), GPUInstance: xmlInt(m.GI), ComputeInstance: xmlInt(m.CI),
				MemoryUsed: xmlBytes(m.FB.Used), MemoryTotal: xmlBytes(m.FB.Total)}
			b.log.MIG = append(b.log.MIG, ms)
		}
		for _, p := range g.Processes {
			b.log.Processes = append(b.log.Processes, ProcessSample{Time: t, GPU: i, UUID: dev.UUID, BusID: dev.BusID,
				PID: max(xmlInt(p.PID), 0), Name: xmlText(p.Name), UsedMemory: xmlBytes(p.Used)})
		}
	}
}

func xmlText(s string) string {
	s = strings.TrimSpace(s)
	if isNA(s) {
		return ""
	}
	return s
}

func xmlBytes(s string) int64 {
	v, ok := parseBytes(s, mib)
	if !ok {
		return Unknown
	}
	return v
}

func xmlNumber(s, unit string) float64 {
	v, ok := parseNumber(s, unit)
	if !ok {
		return math.NaN()
	}
	return v
}

func xmlInt(s string) int {
	n, ok := atoi(strings.TrimSpace(s))
	if !ok {
		return -1
	}
	return n
}
