{{/* The chart's name, or nameOverride. */}}
{{- define "rso.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Object names: fullnameOverride, the release name when it contains the chart name, or <release>-<chart>. */}}
{{- define "rso.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* Labels the pods are selected by: never change them in an upgrade (Deployment selectors are immutable). */}}
{{- define "rso.selectorLabels" -}}
app.kubernetes.io/name: {{ include "rso.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/* Labels of every object the chart renders. */}}
{{- define "rso.labels" -}}
{{ include "rso.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/part-of: rdma-storage-operator
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* repository:tag, or repository@digest; the tag defaults to the chart's appVersion. */}}
{{- define "rso.image" -}}
{{- if .image.digest }}
{{- printf "%s@%s" .image.repository .image.digest }}
{{- else }}
{{- printf "%s:%s" .image.repository (default .chart.AppVersion .image.tag) }}
{{- end }}
{{- end }}

{{/* Leader election whenever more than one replica runs. */}}
{{- define "rso.leaderElection" -}}
{{- if gt (int .Values.replicaCount) 1 }}true{{ end }}
{{- end }}
